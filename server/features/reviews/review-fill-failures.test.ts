import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isWellFormed } from '../../test/well-formed'
import { and, eq } from 'drizzle-orm'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { parkedJobs } from '../../test/parked-jobs'
import { pasteDocument } from '../../test/pasted-document'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { LocalAnalyzer } from '../../ai/analyzer/local-analyzer'
import type { AnalysisResult, Analyzer } from '../../ai/analyzer/types'
import { withTenant, type Principal } from '../../db/tenant'
import { documents, jobs, reviewCells } from '../../db/schema'
import { reopenCellsForText } from '../../documents/app-review-fills'
import { createReview } from './service'
import { fillReview } from './review-fill-job'

let t: TestApp
let m: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  m = await signedInMember(t, 'Failures firm')
})
afterAll(() => t.close())

const documentOf = (title: string, content: string) => pasteDocument(t, m, title, content)
const reviewsUrl = () => `/api/v1/orgs/${m.orgId}/reviews`

interface Cell {
  id: string
  documentId: string
  state: string
  reason: string | null
  answer: Record<string, unknown> | null
  verified: boolean
  verifiedBy: string | null
  verifiedAt: string | null
}

async function cellsOf(reviewId: string) {
  const res = await t.app.inject({
    url: `${reviewsUrl()}/${reviewId}/cells?limit=1000`,
    headers: m.headers,
  })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { items: Cell[] }).items
}

/** Fills a parked review of `documentIds` with the local engine, its reading changed by `edit`. */
async function filledWith(
  documentIds: string[],
  columns: Parameters<typeof createReview>[2]['columns'],
  edit: (result: AnalysisResult, content: string) => void,
) {
  const principal: Principal = {
    orgId: m.orgId,
    userId: m.userId,
    role: 'owner',
    actorType: 'user',
  }
  const review = await createReview({ db: t.database.db, jobs: parkedJobs }, principal, {
    name: 'Engine review',
    rows: { source: 'selection', documentIds },
    columns,
  })
  const local = new LocalAnalyzer(t.pool)
  const analyzer: Analyzer = {
    analyze: async (content, kind, options) => {
      const result = await local.analyze(content, kind, options)
      edit(result, content)
      return result
    },
  } as Analyzer
  const counts = await fillReview(
    { db: t.database.db, analyzer },
    principal,
    review.fillJob!.id,
    review.id,
    {
      signal: new AbortController().signal,
      progress: () => {},
    },
  )
  return { review, counts }
}

describe('a document the fill cannot store an answer of', () => {
  it('answers a document whose long run of emoji is cut into passages, and the fill succeeds', async () => {
    // 27 characters before the emoji: a cut at 700 characters falls inside one of them.
    const poison = await documentOf(
      'Emoji',
      `Termination notice SECRETS ${'😀'.repeat(400)}. The rest.`,
    )
    const normal = await documentOf('Normal', SAMPLE_CONTRACT)
    const made = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(),
      headers: m.headers,
      payload: {
        name: 'Emoji review',
        rows: { source: 'selection', documentIds: [poison, normal] },
        columns: [{ question: 'What is the termination notice?', answerType: 'text' }],
      },
    })
    expect(made.statusCode, made.body).toBe(201)
    const review = made.json() as { id: string; fillJob: { id: string } }
    const job = await finishedJob(t, m, review.fillJob.id)
    expect(job.status).toBe('succeeded')
    const cells = await cellsOf(review.id)
    expect(cells.map((c) => c.state)).toEqual(['answered', 'answered'])
    expect(isWellFormed(String(cells[0]!.answer!.value))).toBe(true)
  })

  it('fails only the cells of a document whose answer the database refuses, and goes on', async () => {
    const poison = await documentOf('Refused', SAMPLE_CONTRACT)
    const normal = await documentOf('Stored', SAMPLE_CONTRACT)
    let calls = 0
    const { review, counts } = await filledWith(
      [poison, normal],
      [{ preset: 'term:parties' }],
      (result) => {
        // PostgreSQL's JSON holds no NUL character (22P05): the first document's answer is refused.
        if (calls++ === 0) result.keyTerms.parties[0]!.name = 'Northwind\u0000 Analytics'
      },
    )
    const cells = await cellsOf(review.id)
    expect(cells.map((c) => c.state)).toEqual(['failed', 'answered'])
    expect(cells[0]!.reason).toMatch(/could not be stored/)
    expect(counts).toMatchObject({ answered: 1, failed: 1 })
  })
})

describe('an answer outside the answer schema', () => {
  it('cuts a long party name and fails a non-finite amount, so the cells still list', async () => {
    const contract = await documentOf('Long names', SAMPLE_CONTRACT)
    const fee = await documentOf(
      'Huge fee',
      `The Client shall pay a fee of $${'9'.repeat(305)} million on signature of this agreement.`,
    )
    const { review } = await filledWith(
      [contract, fee],
      [
        { preset: 'term:parties' },
        { question: 'What fee shall the Client pay?', answerType: 'money' },
      ],
      (result) => {
        const party = result.keyTerms.parties[0]
        if (party)
          party.name =
            'Northwind Analytics, Inc., a Delaware corporation with its principal place of business at '.repeat(
              4,
            )
      },
    )
    const cells = await cellsOf(review.id)
    const [parties, , , money] = cells
    expect(parties).toMatchObject({ state: 'answered' })
    const names = (parties!.answer as { names: string[] }).names
    expect(names[0]!.length).toBeLessThanOrEqual(300)
    expect(money).toMatchObject({ state: 'failed', reason: expect.stringMatching(/out of range/) })
    const csv = await t.app.inject({
      url: `${reviewsUrl()}/${review.id}/export?format=csv`,
      headers: m.headers,
    })
    expect(csv.statusCode).toBe(200)
  })
})

describe('a checked cell answered again', () => {
  it('is unchecked once retried and stays unchecked after the new answer', async () => {
    const contract = await documentOf('Checked', SAMPLE_CONTRACT)
    const { review } = await filledWith([contract], [{ preset: 'term:parties' }], () => {})
    const [cell] = await cellsOf(review.id)
    expect(cell).toMatchObject({ state: 'answered', verified: false })
    const url = `${reviewsUrl()}/${review.id}/cells/${cell!.id}`
    const check = await t.app.inject({
      method: 'PUT',
      url: `${url}/verified`,
      headers: m.headers,
      payload: { verified: true },
    })
    expect(check.statusCode, check.body).toBe(200)
    expect((await cellsOf(review.id))[0]).toMatchObject({ verified: true, verifiedBy: m.userId })
    const retry = await t.app.inject({ method: 'POST', url: `${url}/retry`, headers: m.headers })
    expect(retry.statusCode, retry.body).toBe(202)
    expect((await cellsOf(review.id))[0]).toMatchObject({
      state: 'pending',
      verified: false,
      verifiedBy: null,
      verifiedAt: null,
    })
    // The parked fill is reused: run it here.
    expect((retry.json() as { id: string }).id).toBe(review.fillJob!.id)
    await fillReview(
      { db: t.database.db, analyzer: new LocalAnalyzer(t.pool) },
      { orgId: m.orgId, userId: m.userId, role: 'owner', actorType: 'user' },
      review.fillJob!.id,
      review.id,
      { signal: new AbortController().signal, progress: () => {} },
    )
    expect((await cellsOf(review.id))[0]).toMatchObject({ state: 'answered', verified: false })
  })

  it('is unchecked when a fill writes a new answer over it', async () => {
    const contract = await documentOf('Refilled', SAMPLE_CONTRACT)
    const { review } = await filledWith([contract], [{ preset: 'term:parties' }], () => {})
    const [cell] = await cellsOf(review.id)
    await withTenant(t.database.db, { orgId: m.orgId }, (tx) =>
      tx
        .update(reviewCells)
        .set({ verified: true, verifiedBy: m.userId, verifiedAt: new Date(), state: 'pending' })
        .where(eq(reviewCells.id, cell!.id)),
    )
    const principal: Principal = {
      orgId: m.orgId,
      userId: m.userId,
      role: 'owner',
      actorType: 'user',
    }
    await fillReview(
      { db: t.database.db, analyzer: new LocalAnalyzer(t.pool) },
      principal,
      review.fillJob!.id,
      review.id,
      { signal: new AbortController().signal, progress: () => {} },
    )
    expect((await cellsOf(review.id))[0]).toMatchObject({
      state: 'answered',
      verified: false,
      verifiedBy: null,
    })
  })

  it('reads a damaged stored answer (an imported one) as a failed cell, never failing the page or export', async () => {
    const contract = await documentOf('Damaged', SAMPLE_CONTRACT)
    const { review } = await filledWith([contract], [{ preset: 'term:parties' }], () => {})
    const [cell] = await cellsOf(review.id)
    expect(cell!.state).toBe('answered')
    await withTenant(t.database.db, { orgId: m.orgId }, (tx) =>
      tx
        .update(reviewCells)
        .set({
          answer: { type: 'party', names: ['x'.repeat(400)] },
          override: {
            answer: { type: 'money', amount: -1, currency: 'usd' },
            note: null,
            by: null,
            at: '',
          },
        })
        .where(eq(reviewCells.id, cell!.id)),
    )
    const [read] = await cellsOf(review.id)
    expect(read).toMatchObject({ state: 'failed', answer: null, override: null })
    expect(read!.reason).toMatch(/not one of its kind/)
    const csv = await t.app.inject({
      url: `${reviewsUrl()}/${review.id}/export?format=csv`,
      headers: m.headers,
    })
    expect(csv.statusCode, csv.body).toBe(200)
    expect(csv.body).toContain('Failed')
  })
})

describe('a scanned document whose text is still being read', () => {
  const owner = (): Principal => ({
    orgId: m.orgId,
    userId: m.userId,
    role: 'owner',
    actorType: 'user',
  })

  /** A document without text, with an OCR job queued (parked) for it when `ocr`. */
  async function scan(ocr: boolean) {
    return withTenant(t.database.db, owner(), async (tx) => {
      const [row] = await tx
        .insert(documents)
        .values({ orgId: m.orgId, title: 'Scan', content: '', textStatus: 'empty' })
        .returning({ id: documents.id })
      if (ocr)
        await parkedJobs.enqueue(
          tx,
          owner(),
          'ocr',
          { documentId: row!.id, pages: 1 },
          {
            subjectId: row!.id,
          },
        )
      return row!.id
    })
  }

  it('fails its cells as being read, then answers them once OCR stores the text', async () => {
    const scanned = await scan(true)
    const { review } = await filledWith([scanned], [{ preset: 'term:parties' }], () => {})
    const [waiting] = await cellsOf(review.id)
    expect(waiting!.state).toBe('failed')
    expect(waiting!.reason).toMatch(/still being read/)
    // The first fill has ended (the runner would have marked it); OCR's write, as ocr-job.ts's.
    await withTenant(t.database.db, owner(), (tx) =>
      tx.update(jobs).set({ status: 'succeeded' }).where(eq(jobs.subjectId, review.id)),
    )
    const queued = await withTenant(t.database.db, owner(), async (tx) => {
      await tx
        .update(documents)
        .set({ content: SAMPLE_CONTRACT, textStatus: 'ocr' })
        .where(eq(documents.id, scanned))
      return reopenCellsForText(parkedJobs, tx, owner(), scanned)
    })
    expect(queued).toBe(1)
    expect((await cellsOf(review.id)).map((c) => c.state)).toEqual(['pending'])
    const [fill] = await withTenant(t.database.db, owner(), (tx) =>
      tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.subjectId, review.id), eq(jobs.status, 'queued'))),
    )
    await fillReview(
      { db: t.database.db, analyzer: new LocalAnalyzer(t.pool) },
      owner(),
      fill!.id,
      review.id,
      { signal: new AbortController().signal, progress: () => {} },
    )
    const [answered] = await cellsOf(review.id)
    expect(answered!.state).toBe('answered')
    expect(answered!.reason).toBeNull()
  })

  it('reopens the cells a fill is claiming while OCR stores the text: the claim is waited for', async () => {
    const scanned = await scan(true)
    const { review } = await filledWith([scanned], [{ preset: 'term:parties' }], () => {})
    // Its cells pending (a fill has not reached it yet), then claimed.
    await withTenant(t.database.db, owner(), (tx) =>
      tx
        .update(reviewCells)
        .set({ state: 'pending', reason: null })
        .where(eq(reviewCells.reviewId, review.id)),
    )
    let claiming = () => {}
    const claimed = new Promise<void>((resolve) => (claiming = resolve))
    // A fill's claim: the cells marked running, its transaction still open when OCR writes.
    const claim = withTenant(t.database.db, owner(), async (tx) => {
      await tx
        .update(reviewCells)
        .set({ state: 'running', reason: null })
        .where(eq(reviewCells.reviewId, review.id))
      claiming()
      await new Promise((resolve) => setTimeout(resolve, 300))
    })
    await claimed
    const ocr = withTenant(t.database.db, owner(), async (tx) => {
      await tx
        .update(documents)
        .set({ content: SAMPLE_CONTRACT, textStatus: 'ocr' })
        .where(eq(documents.id, scanned))
      return reopenCellsForText(parkedJobs, tx, owner(), scanned)
    })
    await Promise.all([claim, ocr])
    // On PostgreSQL an update filtered on the state skipped the running cells unseen (pending in
    // its snapshot).
    expect((await cellsOf(review.id)).map((c) => c.state)).toEqual(['pending'])
  })

  it('says a document without text and no reading under way has no text', async () => {
    const { review } = await filledWith([await scan(false)], [{ preset: 'term:parties' }], () => {})
    const [cell] = await cellsOf(review.id)
    expect(cell!.state).toBe('failed')
    expect(cell!.reason).toMatch(/has no text/)
  })
})

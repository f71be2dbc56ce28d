import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import {
  aliceAndMallory,
  principalOf,
  signedInMember,
  signedInWithRole,
  testAppForFile,
  type TestMember,
} from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { appOf } from '../../test/app-of'
import { mintToken } from '../../test/mint-token'
import { pasteDocument } from '../../test/pasted-document'
import { parkedJobs } from '../../test/parked-jobs'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { BALANCED_SUPPLY_AGREEMENT, RISKY_SERVICES_AGREEMENT } from '../../test/test-contracts'
import { LocalAnalyzer } from '../../ai/analyzer/local-analyzer'
import { withTenant } from '../../db/tenant'
import { auditLogs, documents, jobs, reviewCells } from '../../db/schema'
import { addMissingCells, createReview } from './service'
import { fillReview } from './review-fill-job'
import { createNotifier } from '../../realtime/notifier'
import { ORG_MESSAGES_CHANNEL } from '../../realtime/realtime-hub'

const t = await testAppForFile()
const { alice, mallory } = await aliceAndMallory(t)

const reviewsUrl = (m: TestMember) => `/api/v1/orgs/${m.orgId}/reviews`

interface Cell {
  id: string
  documentId: string
  columnId: string
  state: string
  answer: { type: string } | null
  text: string | null
  citations: { start: number; end: number; text: string }[]
  override: { text: string | null } | null
  verified: boolean
}

async function cellsOf(m: TestMember, reviewId: string, query: Record<string, string> = {}) {
  const params = new URLSearchParams({ limit: '1000', ...query })
  const res = await t.app.inject({
    url: `${reviewsUrl(m)}/${reviewId}/cells?${params}`,
    headers: m.headers,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { items: Cell[]; total: number }
}

const COLUMNS = [
  { preset: 'term:parties' },
  { preset: 'term:agreementDate' },
  { preset: 'clause:Cap On Liability' },
  { preset: 'deal:law' },
  { question: 'May the Client terminate this Agreement for convenience?', answerType: 'yes_no' },
]

describe('a review filled offline', () => {
  const texts: Record<string, string> = {}
  let reviewId: string
  let created: {
    id: string
    fillJob: { id: string }
    columns: { label: string }[]
    cells: { total: number }
  } & Record<string, unknown>

  beforeAll(async () => {
    for (const [title, content] of [
      ['Northwind MSA', SAMPLE_CONTRACT],
      ['Risky services', RISKY_SERVICES_AGREEMENT],
      ['Balanced supply', BALANCED_SUPPLY_AGREEMENT],
    ] as const)
      texts[await pasteDocument(t, alice, title, content)] = content
    const res = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(alice),
      headers: alice.headers,
      payload: {
        name: 'Supplier contracts',
        rows: { source: 'selection', documentIds: Object.keys(texts) },
        columns: COLUMNS,
      },
    })
    expect(res.statusCode, res.body).toBe(201)
    created = res.json()
    reviewId = created.id
  })

  /** The first fill, waited for once (inside whichever test asks first: expect.poll needs one). */
  let filling: Promise<Awaited<ReturnType<typeof finishedJob>>> | undefined
  const filled = () => (filling ??= finishedJob(t, alice, created.fillJob.id))

  it('creates a review, fills it, and answers its cells with citations that are the documents’ slices', async () => {
    expect(created).toMatchObject({ name: 'Supplier contracts', rows: 3, rowSource: 'selection' })
    expect(created.columns.map((c: { label: string }) => c.label)).toEqual([
      'Parties',
      'Agreement date',
      'Cap On Liability',
      'Law and disputes',
      'May the Client terminate this Agreement for convenience?',
    ])
    expect(created.cells.total).toBe(15)
    const fill = await filled()
    expect(fill.status, fill.error ?? '').toBe('succeeded')
    expect(fill.result).toMatchObject({ total: 15 })

    const { items, total } = await cellsOf(alice, reviewId)
    expect(total).toBe(15)
    expect(items.every((c) => !['pending', 'running'].includes(c.state))).toBe(true)
    const answered = items.filter((c) => c.state === 'answered')
    expect(answered.length).toBeGreaterThanOrEqual(6)
    for (const cell of answered) {
      expect(cell.citations.length).toBeGreaterThan(0)
      for (const c of cell.citations)
        expect(texts[cell.documentId]!.slice(c.start, c.end)).toBe(c.text)
    }
    const read = (
      await t.app.inject({ url: `${reviewsUrl(alice)}/${reviewId}`, headers: alice.headers })
    ).json()
    expect(read.cells.pending + read.cells.running).toBe(0)
    expect(read.fill).toMatchObject({ status: 'succeeded', progress: 1 })
  })

  it('pages cells in grid order and filters them by column and state', async () => {
    await filled()
    const { items } = await cellsOf(alice, reviewId)
    const page = (await cellsOf(alice, reviewId, { offset: '5', limit: '5' })).items
    expect(page.map((c) => c.id)).toEqual(items.slice(5, 10).map((c) => c.id))
    const column = items[0]!.columnId
    const ofColumn = await cellsOf(alice, reviewId, { columnId: column })
    expect(ofColumn.total).toBe(3)
    expect(ofColumn.items.every((c) => c.columnId === column)).toBe(true)
    const answered = await cellsOf(alice, reviewId, { state: 'answered' })
    expect(answered.items.every((c) => c.state === 'answered')).toBe(true)
  })

  it('keeps the original answer beside an override, and audits overrides and checks', async () => {
    await filled()
    const { items } = await cellsOf(alice, reviewId, { state: 'answered' })
    const cell = items.find((c) => c.answer?.type === 'date') ?? items[0]!
    const wrongType = await t.app.inject({
      method: 'PUT',
      url: `${reviewsUrl(alice)}/${reviewId}/cells/${cell.id}/override`,
      headers: alice.headers,
      payload: { override: { answer: { type: 'money', amount: 5, currency: 'USD' }, note: null } },
    })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json()).toMatchObject({ code: 'bad_review_column' })
    const override = cell.answer?.type === 'date' ? { type: 'date', value: '2020-01-31' } : null
    const res = await t.app.inject({
      method: 'PUT',
      url: `${reviewsUrl(alice)}/${reviewId}/cells/${cell.id}/override`,
      headers: alice.headers,
      payload: { override: { answer: override, note: 'Side letter moves it' } },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      answer: cell.answer,
      text: cell.text,
      override: {
        answer: override,
        text: override ? '2020-01-31' : null,
        note: 'Side letter moves it',
        by: alice.userId,
      },
    })
    const verified = await t.app.inject({
      method: 'PUT',
      url: `${reviewsUrl(alice)}/${reviewId}/cells/${cell.id}/verified`,
      headers: alice.headers,
      payload: { verified: true },
    })
    expect(verified.json()).toMatchObject({ verified: true, verifiedBy: alice.userId })
    const audited = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .select({ action: auditLogs.action })
        .from(auditLogs)
        .where(eq(auditLogs.orgId, alice.orgId)),
    )
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining(['review.create', 'review.cell.override', 'review.cell.verify']),
    )
  })

  it('answers a retried column again', async () => {
    await filled()
    const { items } = await cellsOf(alice, reviewId)
    const column = items[0]!.columnId
    const res = await t.app.inject({
      method: 'POST',
      url: `${reviewsUrl(alice)}/${reviewId}/columns/${column}/retry`,
      headers: alice.headers,
    })
    expect(res.statusCode, res.body).toBe(202)
    expect((await finishedJob(t, alice, res.json().id)).status).toBe('succeeded')
    const again = await cellsOf(alice, reviewId, { columnId: column })
    expect(again.items.map((c) => c.state)).toEqual(
      items.filter((c) => c.columnId === column).map((c) => c.state),
    )
  })

  it('exports the grid as XLSX with typed cells, citations as notes and a sheet of citations, and as CSV', async () => {
    await filled()
    const { items } = await cellsOf(alice, reviewId)
    // The sample contract as a scan read by OCR: two pages, the second from its date's passage.
    const sample = Object.keys(texts).find((id) => texts[id] === SAMPLE_CONTRACT)!
    const dateCell = items.find((c) => c.documentId === sample && c.answer?.type === 'date')
    expect(dateCell).toBeDefined()
    const secondPage = dateCell!.citations[0]!.start
    await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .update(documents)
        .set({ pageStarts: [0, secondPage] })
        .where(eq(documents.id, sample)),
    )
    const res = await t.app.inject({
      url: `${reviewsUrl(alice)}/${reviewId}/export`,
      headers: alice.headers,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/spreadsheetml/)
    expect(res.headers['content-disposition']).toContain('Supplier%20contracts.xlsx')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer)
    const grid = workbook.getWorksheet('Review')!
    expect(grid.rowCount).toBe(4)
    expect(grid.getRow(1).getCell(3).value).toBe('Agreement date')
    const row = [2, 3, 4]
      .map((n) => grid.getRow(n))
      .find((r) => r.getCell(1).value === 'Northwind MSA')!
    // A date is a date cell (overridden or not), and its note quotes the passage it was read from,
    // on its page of the scan.
    expect(row.getCell(3).value).toBeInstanceOf(Date)
    expect(String(row.getCell(3).note)).toContain(
      dateCell!.citations[0]!.text.replace(/\s+/g, ' ').trim(),
    )
    expect(String(row.getCell(3).note)).toContain(`[p. 2, ${secondPage}–`)
    // A note cuts each quote at 200 characters (the Citations sheet holds it whole).
    const noteQuotes = [2, 3, 4].flatMap((n) =>
      COLUMNS.flatMap((_, i) =>
        String(grid.getRow(n).getCell(i + 2).note ?? '').split('\n'),
      ).filter((line) => line.startsWith('[')),
    )
    expect(noteQuotes.length).toBeGreaterThan(0)
    for (const line of noteQuotes)
      expect(line.replace(/^\[(?:p\. \d+, )?\d+–\d+\] “|”$/g, '').length).toBeLessThanOrEqual(201)
    const citations = workbook.getWorksheet('Citations')!
    const quoted = items.filter((c) => c.state === 'answered').flatMap((c) => c.citations)
    expect(quoted.some((c) => c.text.length > 200)).toBe(true)
    expect(citations.rowCount).toBe(quoted.length + 1)
    for (let n = 2; n <= citations.rowCount; n++) {
      const r = citations.getRow(n)
      const [page, start, end, quote] = [4, 5, 6, 7].map((i) => r.getCell(i - 1).value)
      const content = Object.values(texts).find(
        (text) => text.slice(Number(start), Number(end)) === quote,
      )
      expect(content, `citation ${n} is a slice of its document`).toBeDefined()
      // Only the scan has pages: the page holding the citation's start.
      expect(page ?? '').toBe(
        r.getCell(1).value === 'Northwind MSA' ? (Number(start) >= secondPage ? 2 : 1) : '',
      )
    }
    const csv = await t.app.inject({
      url: `${reviewsUrl(alice)}/${reviewId}/export?format=csv`,
      headers: alice.headers,
    })
    expect(csv.statusCode).toBe(200)
    const lines = csv.body.trim().split('\r\n')
    expect(lines[0]).toContain('"Agreement date","Agreement date (citations)"')
    expect(lines.filter((line) => line.startsWith('"')).length).toBeGreaterThanOrEqual(4)
    // The grid's text of a cell (the cells API's) is the export's, word for word.
    const worded = items
      .map((c) => (c.override ? c.override.text : c.text))
      .filter((text): text is string => !!text && !/^[=+\-@]/.test(text))
    expect(worded.length).toBeGreaterThanOrEqual(6)
    for (const text of worded) expect(csv.body).toContain(`"${text.replace(/"/g, '""')}"`)
    const foreign = await t.app.inject({
      url: `${reviewsUrl(mallory)}/${reviewId}/export`,
      headers: mallory.headers,
    })
    expect(foreign.statusCode).toBe(404)
  })

  it('hides a review from another organisation behind 404s', async () => {
    const urls = [
      `${reviewsUrl(alice)}/${reviewId}`,
      `${reviewsUrl(alice)}/${reviewId}/cells`,
      `${reviewsUrl(alice)}/${reviewId}/columns`,
    ]
    for (const url of urls) {
      const res = await t.app.inject({ url, headers: mallory.headers })
      expect(res.statusCode).toBe(404)
      expect(res.body).not.toContain('Supplier contracts')
    }
    // In mallory's own organisation the id names nothing either.
    const own = await t.app.inject({
      url: `${reviewsUrl(mallory)}/${reviewId}`,
      headers: mallory.headers,
    })
    expect(own.statusCode).toBe(404)
    expect(own.json()).toMatchObject({ code: 'review_not_found' })
    const cells = await t.app.inject({
      url: `${reviewsUrl(mallory)}/${reviewId}/cells`,
      headers: mallory.headers,
    })
    expect(cells.json()).toMatchObject({ code: 'review_not_found' })
    const list = (await t.app.inject({ url: reviewsUrl(mallory), headers: mallory.headers })).json()
    expect(list).toEqual({ items: [], total: 0 })
    // Nor can another organisation's document be a row.
    const foreign = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(mallory),
      headers: mallory.headers,
      payload: {
        name: 'Peek',
        rows: { source: 'selection', documentIds: Object.keys(texts) },
        columns: COLUMNS,
      },
    })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toMatchObject({ code: 'document_not_found' })
  })

  it('lets only the creator or an admin rename and delete a review', async () => {
    const colleague = await signedInWithRole(t, alice.orgId, 'member')
    const made = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(alice),
      headers: alice.headers,
      payload: {
        name: 'To delete',
        rows: { source: 'selection', documentIds: Object.keys(texts) },
      },
    })
    expect(made.statusCode, made.body).toBe(201)
    const reviewId = (made.json() as { id: string }).id
    const rename = await t.app.inject({
      method: 'PATCH',
      url: `${reviewsUrl(alice)}/${reviewId}`,
      headers: colleague.headers,
      payload: { name: 'Mine now' },
    })
    expect(rename.statusCode).toBe(403)
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${reviewsUrl(alice)}/${reviewId}`,
      headers: alice.headers,
    })
    expect(deleted.statusCode).toBe(204)
    const gone = await t.app.inject({
      url: `${reviewsUrl(alice)}/${reviewId}/cells`,
      headers: alice.headers,
    })
    expect(gone.statusCode).toBe(404)
  })

  it('refuses a yes/no column whose question is not a yes/no question', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(alice),
      headers: alice.headers,
      payload: {
        name: 'Bad column',
        rows: { source: 'selection', documentIds: Object.keys(texts) },
        columns: [{ question: 'What is the governing law?', answerType: 'yes_no' }],
      },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'bad_review_column' })
  })
})

describe('a review export', () => {
  it('writes a title that looks like a formula as text: a string cell in XLSX, quote-prefixed in CSV', async () => {
    const bob = await signedInMember(t)
    const title = '=HYPERLINK("http://evil.example","Open")'
    const documentId = await pasteDocument(t, bob, title, SAMPLE_CONTRACT)
    // Its fill is parked, so the cell stays pending.
    const principal = principalOf(bob, 'member')
    const review = await createReview({ db: t.database.db, jobs: parkedJobs }, principal, {
      name: '+Formula? review',
      rows: { source: 'selection', documentIds: [documentId] },
      columns: [{ preset: 'term:agreementDate' }],
    })
    const xlsx = await t.app.inject({
      url: `${reviewsUrl(bob)}/${review.id}/export`,
      headers: bob.headers,
    })
    expect(xlsx.statusCode, xlsx.body).toBe(200)
    expect(xlsx.headers['content-disposition']).toContain('Formula%20review.xlsx')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
    const row = workbook.getWorksheet('Review')!.getRow(2)
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String)
    expect(row.getCell(1).value).toBe(title)
    expect(row.getCell(2).value).toBe('Pending')
    expect(row.getCell(2).note).toBeUndefined()
    expect(workbook.getWorksheet('Citations')!.rowCount).toBe(1)
    const csv = await t.app.inject({
      url: `${reviewsUrl(bob)}/${review.id}/export?format=csv`,
      headers: bob.headers,
    })
    expect(csv.body.split('\r\n')[1]).toBe(
      `"${documentId}","'=HYPERLINK(""http://evil.example"",""Open"")","Pending",""`,
    )
  })
})

describe('an app-bound credential', () => {
  it("sees its app's reviews only, and reads another app's review as missing", async () => {
    const owner = await signedInMember(t, 'App firm')
    const [appA, appB] = [await appOf(t, owner, 'rev-a'), await appOf(t, owner, 'rev-b')]
    const reviewIn = async (appId: string, name: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: reviewsUrl(owner),
        headers: owner.headers,
        payload: { name, appId, rows: { source: 'app' }, columns: [{ preset: 'term:parties' }] },
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json() as { id: string; rows: number; fillJob: { id: string } }
    }
    await pasteDocument(t, owner, 'A contract', SAMPLE_CONTRACT, appA)
    await pasteDocument(t, owner, 'B contract', SAMPLE_CONTRACT, appB)
    await pasteDocument(t, owner, 'Firm-wide contract', SAMPLE_CONTRACT)
    const ofA = await reviewIn(appA, 'Review A')
    const ofB = await reviewIn(appB, 'Review B')
    expect(ofA.rows).toBe(1)
    const { token } = await mintToken(t, owner, {
      app_id: appA,
      scope: 'read write',
      ttl_seconds: 600,
    })
    const headers = { authorization: `Bearer ${token}`, origin: owner.headers.origin }
    const list = (await t.app.inject({ url: reviewsUrl(owner), headers })).json()
    expect(list.items.map((r: { name: string }) => r.name)).toEqual(['Review A'])
    const other = await t.app.inject({ url: `${reviewsUrl(owner)}/${ofB.id}/cells`, headers })
    expect(other.statusCode).toBe(404)
    const own = await t.app.inject({ url: `${reviewsUrl(owner)}/${ofA.id}`, headers })
    expect(own.statusCode).toBe(200)
    // A review it creates is its app's, and cannot hold another app's document.
    const made = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(owner),
      headers,
      payload: { name: 'By token', rows: { source: 'app' }, appId: appA, columns: [] },
    })
    expect(made.statusCode, made.body).toBe(201)
    expect(made.json()).toMatchObject({ appId: appA })
    const [docOfB] = (
      await t.app.inject({
        url: `/api/v1/orgs/${owner.orgId}/documents?appId=${appB}`,
        headers: owner.headers,
      })
    ).json().items as { id: string }[]
    const crossing = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(owner),
      headers,
      payload: {
        name: 'Crossing',
        appId: appA,
        rows: { source: 'selection', documentIds: [docOfB!.id] },
      },
    })
    expect(crossing.statusCode).toBe(404)
    // It follows and may cancel the fill of its app's review, and sees none of another app's.
    const jobsUrl = `/api/v1/orgs/${owner.orgId}/jobs`
    const fillOfA = await t.app.inject({ url: `${jobsUrl}/${ofA.fillJob.id}`, headers })
    expect(fillOfA.statusCode, fillOfA.body).toBe(200)
    expect(fillOfA.json()).toMatchObject({ id: ofA.fillJob.id, kind: 'review-fill' })
    expect((await t.app.inject({ url: `${jobsUrl}/${ofB.fillJob.id}`, headers })).statusCode).toBe(
      404,
    )
    const cancelOfB = await t.app.inject({
      method: 'POST',
      url: `${jobsUrl}/${ofB.fillJob.id}/cancel`,
      headers,
    })
    expect(cancelOfB.statusCode).toBe(404)
    const cancelOfA = await t.app.inject({
      method: 'POST',
      url: `${jobsUrl}/${ofA.fillJob.id}/cancel`,
      headers,
    })
    // Cancelled, or already ended (409): never a 404.
    expect([200, 409], cancelOfA.body).toContain(cancelOfA.statusCode)
    await finishedJob(t, owner, ofA.fillJob.id)
    await finishedJob(t, owner, ofB.fillJob.id)
  })
  it("adds a new document of the app to the app's reviews as it arrives, through a queued fill", async () => {
    const owner = await signedInMember(t, 'Arrivals firm')
    const appId = await appOf(t, owner, 'arrivals')
    await pasteDocument(t, owner, 'First', SAMPLE_CONTRACT, appId)
    const res = await t.app.inject({
      method: 'POST',
      url: reviewsUrl(owner),
      headers: owner.headers,
      payload: {
        name: 'Every contract of the app',
        appId,
        rows: { source: 'app' },
        columns: [{ preset: 'term:parties' }],
      },
    })
    expect(res.statusCode, res.body).toBe(201)
    const review = res.json() as { id: string; rows: number; fillJob: { id: string } }
    expect(review.rows).toBe(1)
    expect((await finishedJob(t, owner, review.fillJob.id)).status).toBe('succeeded')
    const fillsOf = () =>
      withTenant(t.database.db, { orgId: owner.orgId }, (tx) =>
        tx
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.kind, 'review-fill'), eq(jobs.subjectId, review.id))),
      )
    expect(await fillsOf()).toHaveLength(1)
    // A document of another app, or of no app, queues nothing for it.
    await pasteDocument(t, owner, 'Elsewhere', SAMPLE_CONTRACT)
    expect(await fillsOf()).toHaveLength(1)

    const second = await pasteDocument(t, owner, 'Second', RISKY_SERVICES_AGREEMENT, appId)
    const fills = await fillsOf()
    expect(fills).toHaveLength(2)
    const next = fills.find((f) => f.id !== review.fillJob.id)!
    expect((await finishedJob(t, owner, next.id)).status).toBe('succeeded')
    const { items } = await cellsOf(owner, review.id)
    expect(items.map((c) => c.documentId)).toContain(second)
    expect(items).toHaveLength(2)
    expect(items.every((c) => !['pending', 'running'].includes(c.state))).toBe(true)
  })
})

describe('the fill job', () => {
  async function parkedReview(m: TestMember, documentIds: string[]) {
    const principal = principalOf(m)
    const review = await createReview({ db: t.database.db, jobs: parkedJobs }, principal, {
      name: 'Parked',
      rows: { source: 'selection', documentIds },
      columns: [{ preset: 'term:parties' }, { preset: 'term:governingLaw' }],
    })
    return { principal, review }
  }

  /** The review's cells' states in grid order, as listed (unwritten cells list as pending). */
  const states = async (m: TestMember, reviewId: string) =>
    (await cellsOf(m, reviewId)).items.map((c) => c.state)

  /** The cells written in the table (the listed ones include the unwritten, as pending). */
  const writtenCells = async (orgId: string, reviewId: string) =>
    withTenant(t.database.db, { orgId }, (tx) =>
      tx
        .select({ id: reviewCells.id, state: reviewCells.state })
        .from(reviewCells)
        .where(eq(reviewCells.reviewId, reviewId)),
    )

  it('writes no cell at creation: they list as pending under the ids the fill writes them with', async () => {
    const m = await signedInMember(t, 'Lazy firm')
    const { principal, review } = await parkedReview(m, [
      await pasteDocument(t, m, 'One', SAMPLE_CONTRACT),
      await pasteDocument(t, m, 'Two', RISKY_SERVICES_AGREEMENT),
    ])
    expect(await writtenCells(m.orgId, review.id)).toEqual([])
    expect(review.cells).toMatchObject({ total: 4, pending: 4, answered: 0 })
    const listed = await cellsOf(m, review.id)
    expect(listed.total).toBe(4)
    expect(listed.items.map((c) => c.state)).toEqual(['pending', 'pending', 'pending', 'pending'])
    expect((await cellsOf(m, review.id, { state: 'pending' })).total).toBe(4)
    const csv = await t.app.inject({
      url: `${reviewsUrl(m)}/${review.id}/export?format=csv`,
      headers: m.headers,
    })
    expect(csv.statusCode, csv.body).toBe(200)
    expect(csv.body.split('\r\n')[1]).toContain('Pending')
    // Overriding a cell not yet written writes its row's cells first.
    const target = listed.items[3]!
    const res = await t.app.inject({
      method: 'PUT',
      url: `${reviewsUrl(m)}/${review.id}/cells/${target.id}/override`,
      headers: m.headers,
      payload: { override: { answer: null, note: 'Checked by hand' } },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect((await writtenCells(m.orgId, review.id)).map((c) => c.id).sort()).toEqual(
      listed.items
        .slice(2)
        .map((c) => c.id)
        .sort(),
    )
    await fillReview(
      { db: t.database.db, analyzer: new LocalAnalyzer(t.pool) },
      principal,
      review.fillJob!.id,
      review.id,
      { signal: new AbortController().signal, progress: () => {} },
    )
    const after = await cellsOf(m, review.id)
    expect(after.items.map((c) => c.id)).toEqual(listed.items.map((c) => c.id))
    expect(after.items.every((c) => c.state !== 'pending' && c.state !== 'running')).toBe(true)
    expect(after.items[3]!.override).toMatchObject({ note: 'Checked by hand' })
  })

  it('stops at a cancel with no cell left running, and a later run resumes where it stopped', async () => {
    const m = await signedInMember(t, 'Cancel firm')
    const ids = [
      await pasteDocument(t, m, 'One', SAMPLE_CONTRACT),
      await pasteDocument(t, m, 'Two', RISKY_SERVICES_AGREEMENT),
      await pasteDocument(t, m, 'Three', BALANCED_SUPPLY_AGREEMENT),
    ]
    const { principal, review } = await parkedReview(m, ids)
    const analyzer = new LocalAnalyzer(t.pool)
    const cancel = new AbortController()
    const run = fillReview(
      { db: t.database.db, analyzer },
      principal,
      review.fillJob!.id,
      review.id,
      {
        signal: cancel.signal,
        // Cancelled as the first document's cells are written: the next document is never taken.
        progress: () => cancel.abort(new Error('cancelled')),
      },
    )
    await expect(run).rejects.toThrow('cancelled')
    const stopped = await states(m, review.id)
    expect(stopped.slice(0, 2).every((s) => s !== 'pending' && s !== 'running')).toBe(true)
    expect(stopped.slice(2)).toEqual(['pending', 'pending', 'pending', 'pending'])

    const progress: number[] = []
    const notifier = createNotifier(t.database, { warn: () => {} })
    const announced: {
      org_id: string
      message: { rowId: string; cells: unknown[]; done: number }
    }[] = []
    const stop = await notifier.listen(ORG_MESSAGES_CHANNEL, (payload) => {
      const parsed = JSON.parse(payload) as (typeof announced)[number]
      if (parsed.org_id === m.orgId) announced.push(parsed)
    })
    const counts = await fillReview(
      { db: t.database.db, analyzer },
      principal,
      review.fillJob!.id,
      review.id,
      {
        signal: new AbortController().signal,
        progress: (fraction) => progress.push(fraction),
      },
    )
    expect(counts.total).toBe(6)
    expect(progress).toEqual([4 / 6, 1])
    // Each document's written cells are announced on the organisation's channel at their commit.
    await expect.poll(() => announced.length, { timeout: 10_000 }).toBe(2)
    expect(announced.map((a) => [a.message.cells.length, a.message.done])).toEqual([
      [2, 4],
      [2, 6],
    ])
    await stop()
    await notifier.close()
    expect((await states(m, review.id)).some((s) => s === 'pending' || s === 'running')).toBe(false)
  })

  it('answers again the cells a crashed run left running', async () => {
    const m = await signedInMember(t, 'Crash firm')
    const { principal, review } = await parkedReview(m, [
      await pasteDocument(t, m, 'One', SAMPLE_CONTRACT),
    ])
    // A run that died after claiming the document: its cells are written and stay running.
    await withTenant(t.database.db, { orgId: m.orgId }, async (tx) => {
      await addMissingCells(tx, review.id)
      await tx
        .update(reviewCells)
        .set({ state: 'running' })
        .where(and(eq(reviewCells.reviewId, review.id)))
    })
    expect(await states(m, review.id)).toEqual(['running', 'running'])
    const counts = await fillReview(
      { db: t.database.db, analyzer: new LocalAnalyzer(t.pool) },
      principal,
      review.fillJob!.id,
      review.id,
      { signal: new AbortController().signal, progress: () => {} },
    )
    expect(counts.answered + counts.notFound).toBe(2)
    expect(await states(m, review.id)).not.toContain('running')
  })
})

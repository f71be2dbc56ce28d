/**
 * Comparisons through the API (issue 46, decision 0149): created as a job that stores the
 * engine's result, every change cited in both documents' texts; the verified DOCX and the HTML
 * redline served as files; tenant and app isolation (RLS); deletion by the creator or an admin,
 * with either document, and never past a legal hold on a document.
 */
import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { unzipSync, strFromU8 } from 'fflate'
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
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { withTenant } from '../../db/tenant'
import { auditLogs, comparisons, documents, jobs } from '../../db/schema'
import { readRedline } from '../../compare/read-redline'
import type { WorkerPool } from '../../workers/worker-pool'
import { runComparison } from './comparison-job'

const t = await testAppForFile()
const { alice, mallory } = await aliceAndMallory(t)

const comparisonsUrl = (m: Pick<TestMember, 'orgId'>) => `/api/v1/orgs/${m.orgId}/comparisons`

/** The sample contract with their markup: a period changed, a clause moved, one deleted. */
const REVISED = SAMPLE_CONTRACT.replace(
  'upon thirty (30) days prior written notice',
  'upon sixty (60) days prior written notice',
)
  .replace(
    "8. Confidentiality. Each party shall keep the other party's Confidential Information confidential.\n",
    '',
  )
  .replace(
    '1. Services. Provider shall provide the services described in each statement of work.\n\n',
    '',
  )
  .concat(
    '\n1. Services. Provider shall provide the services described in each statement of work.\n',
  )

interface Change {
  kind: string
  substantive: boolean
  base: { start: number; end: number }
  revised: { start: number; end: number }
  baseText: string
  revisedText: string
  note: string | null
}

interface Detail {
  id: string
  state: string
  appId: string | null
  counts: { substantive: number; formatOnly: number; moves: number } | null
  job: { jobId: string } | null
  result: { changes: Change[]; pairs: { relation: string }[] } | null
}

async function compare(m: TestMember, baseDocumentId: string, revisedDocumentId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: comparisonsUrl(m),
    headers: m.headers,
    payload: { baseDocumentId, revisedDocumentId },
  })
  expect(res.statusCode, res.body).toBe(202)
  return res.json() as { id: string; state: string; job: { id: string; kind: string } }
}

async function comparedPair(m: TestMember) {
  const baseId = await pasteDocument(t, m, 'MSA v1', SAMPLE_CONTRACT)
  const revisedId = await pasteDocument(t, m, 'MSA v2 (their markup)', REVISED)
  const created = await compare(m, baseId, revisedId)
  const job = await finishedJob(t, m, created.job.id)
  expect(job.status, job.error ?? '').toBe('succeeded')
  return { baseId, revisedId, id: created.id }
}

describe('a comparison', () => {
  it('is compared by its job, every change cited in both texts', async () => {
    const baseId = await pasteDocument(t, alice, 'MSA v1', SAMPLE_CONTRACT)
    const revisedId = await pasteDocument(t, alice, 'MSA v2', REVISED)
    const created = await compare(alice, baseId, revisedId)
    expect(created).toMatchObject({ state: 'queued', job: { kind: 'comparison' } })
    const job = await finishedJob(t, alice, created.job.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(job.result).toMatchObject({ comparisonId: created.id, moves: 1 })

    const res = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${created.id}`,
      headers: alice.headers,
    })
    expect(res.statusCode, res.body).toBe(200)
    const detail = res.json() as Detail
    expect(detail).toMatchObject({ state: 'done', counts: { moves: 1 } })
    const changes = detail.result!.changes
    for (const change of changes) {
      expect(SAMPLE_CONTRACT.slice(change.base.start, change.base.end)).toBe(change.baseText)
      expect(REVISED.slice(change.revised.start, change.revised.end)).toBe(change.revisedText)
    }
    const period = changes.find((c) => c.kind === 'modified' && c.baseText.includes('thirty'))
    expect(period).toMatchObject({
      substantive: true,
      revisedText: expect.stringContaining('sixty'),
    })
    expect(changes.filter((c) => c.kind === 'moved')).toHaveLength(1)
    expect(changes.find((c) => c.kind === 'deleted')?.baseText).toContain('Confidentiality')
    expect(detail.counts!.substantive).toBeGreaterThanOrEqual(2)

    const list = await t.app.inject({
      url: `${comparisonsUrl(alice)}?documentId=${revisedId}`,
      headers: alice.headers,
    })
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: created.id, state: 'done' }] })
    expect(list.json().items[0]).not.toHaveProperty('result')

    const [audit] = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'comparison.create'), eq(auditLogs.targetId, created.id))),
    )
    expect(audit?.meta).toEqual({ baseDocumentId: baseId, revisedDocumentId: revisedId })
  })

  it('serves a verified tracked-changes DOCX and a sandboxed HTML redline', async () => {
    const { id } = await comparedPair(alice)
    const docx = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${id}/redline.docx`,
      headers: alice.headers,
    })
    expect(docx.statusCode, docx.body).toBe(200)
    expect(docx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    expect(docx.headers['x-content-type-options']).toBe('nosniff')
    expect(docx.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
    expect(docx.headers['content-disposition']).toMatch(
      /^attachment; filename="MSA_v2_their_markup_-_redline\.docx"/,
    )
    const bytes = new Uint8Array(docx.rawPayload)
    const { accepted, rejected } = readRedline(bytes)
    expect(accepted).toBe(REVISED)
    expect(rejected).toBe(SAMPLE_CONTRACT)
    const xml = strFromU8(unzipSync(bytes)['word/document.xml']!)
    expect(xml).toContain('<w:moveFrom ')
    expect(xml).toContain('w:author="Lexdesk"')

    const html = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${id}/redline.html`,
      headers: alice.headers,
    })
    expect(html.statusCode).toBe(200)
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(html.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
    expect(html.headers['x-content-type-options']).toBe('nosniff')
    expect(html.headers['content-disposition']).toMatch(/^attachment;/)
    expect(html.body).toContain('<del>thirty</del><ins>sixty</ins>')
    expect(html.body).toContain('class="moved-to"')
  })

  it('escapes the texts in the HTML redline', async () => {
    const baseId = await pasteDocument(t, alice, 'Plain', 'The price is <b>ten</b> dollars.')
    const revisedId = await pasteDocument(
      t,
      alice,
      'Markup',
      'The price is <script>alert(1)</script> dollars.',
    )
    const created = await compare(alice, baseId, revisedId)
    expect((await finishedJob(t, alice, created.job.id)).status).toBe('succeeded')
    const html = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${created.id}/redline.html`,
      headers: alice.headers,
    })
    expect(html.body).not.toMatch(/<\/?(script|b)\b/)
    expect(html.body).toContain(
      '&lt;<del>b</del><ins>script</ins>&gt;<del>ten</del><ins>alert(1)</ins>',
    )
  })

  it('answers 409 for its redlines until done, and when a text changed since', async () => {
    const { id, revisedId } = await comparedPair(alice)
    await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx.update(comparisons).set({ state: 'running' }).where(eq(comparisons.id, id)),
    )
    const running = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${id}/redline.docx`,
      headers: alice.headers,
    })
    expect(running.statusCode).toBe(409)
    expect(running.json()).toMatchObject({ code: 'comparison_not_ready' })
    await withTenant(t.database.db, { orgId: alice.orgId }, async (tx) => {
      await tx.update(comparisons).set({ state: 'done' }).where(eq(comparisons.id, id))
      await tx
        .update(documents)
        .set({ content: `${REVISED} Added later.` })
        .where(eq(documents.id, revisedId))
    })
    const stale = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${id}/redline.html`,
      headers: alice.headers,
    })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'comparison_stale' })
    // The DOCX is built on a pool thread: its refusal comes back as the same problem.
    const staleDocx = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${id}/redline.docx`,
      headers: alice.headers,
    })
    expect(staleDocx.statusCode).toBe(409)
    expect(staleDocx.json()).toMatchObject({ code: 'comparison_stale' })
  })

  it('refuses a document of another organisation as a missing one, and reads as missing there', async () => {
    const own = await pasteDocument(t, alice, 'Ours', SAMPLE_CONTRACT)
    const theirs = await pasteDocument(t, mallory, 'Theirs', REVISED)
    const crossing = await t.app.inject({
      method: 'POST',
      url: comparisonsUrl(alice),
      headers: alice.headers,
      payload: { baseDocumentId: own, revisedDocumentId: theirs },
    })
    expect(crossing.statusCode).toBe(404)
    expect(crossing.json()).toMatchObject({ code: 'document_not_found' })

    const { id } = await comparedPair(alice)
    for (const path of ['', '/redline.docx', '/redline.html']) {
      const res = await t.app.inject({
        url: `${comparisonsUrl(alice)}/${id}${path}`.replace(alice.orgId, mallory.orgId),
        headers: mallory.headers,
      })
      expect(res.statusCode, path).toBe(404)
    }
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `${comparisonsUrl(mallory)}/${id}`,
      headers: mallory.headers,
    })
    expect(gone.statusCode).toBe(404)
    const list = (
      await t.app.inject({ url: comparisonsUrl(mallory), headers: mallory.headers })
    ).json() as { items: { id: string }[] }
    expect(list.items.map((c) => c.id)).not.toContain(id)
    // Row-level security, not only the routes: another organisation's transaction sees no row.
    const rows = await withTenant(t.database.db, { orgId: mallory.orgId }, (tx) =>
      tx.select().from(comparisons).where(eq(comparisons.id, id)),
    )
    expect(rows).toEqual([])
  })

  it('is deleted by its creator or an admin (audited), and with either document', async () => {
    const owner = await signedInMember(t, 'Compare firm')
    const associate = await signedInWithRole(t, owner.orgId, 'member')
    const { id } = await comparedPair(owner)
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `${comparisonsUrl(owner)}/${id}`,
      headers: associate.headers,
    })
    expect(refused.statusCode).toBe(403)
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${comparisonsUrl(owner)}/${id}`,
      headers: owner.headers,
    })
    expect(deleted.statusCode).toBe(204)
    const [audit] = await withTenant(t.database.db, { orgId: owner.orgId }, (tx) =>
      tx
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'comparison.delete'), eq(auditLogs.targetId, id))),
    )
    expect(audit).toBeDefined()

    const second = await comparedPair(owner)
    const dropDocument = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${owner.orgId}/documents/${second.baseId}`,
      headers: owner.headers,
    })
    expect(dropDocument.statusCode).toBe(204)
    const after = await t.app.inject({
      url: `${comparisonsUrl(owner)}/${second.id}`,
      headers: owner.headers,
    })
    expect(after.statusCode).toBe(404)
  })

  it('leaves a legal hold on a document standing: the document and its comparison stay', async () => {
    const owner = await signedInMember(t, 'Held firm')
    const { id, revisedId } = await comparedPair(owner)
    const hold = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.orgId}/legal-holds`,
      headers: owner.headers,
      payload: { targetKind: 'document', targetId: revisedId, reason: 'Litigation pending' },
    })
    expect(hold.statusCode, hold.body).toBe(201)
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${owner.orgId}/documents/${revisedId}`,
      headers: owner.headers,
    })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ code: 'legal_hold' })
    const kept = await t.app.inject({
      url: `${comparisonsUrl(owner)}/${id}`,
      headers: owner.headers,
    })
    expect(kept.statusCode).toBe(200)
    // The comparison itself is derived data: deleting it is allowed while the hold stands.
    const derived = await t.app.inject({
      method: 'DELETE',
      url: `${comparisonsUrl(owner)}/${id}`,
      headers: owner.headers,
    })
    expect(derived.statusCode).toBe(204)
  })
})

describe('an app-bound credential', () => {
  it("compares its app's documents only, and sees only its app's comparisons", async () => {
    const owner = await signedInMember(t, 'App compare firm')
    const [appA, appB] = [await appOf(t, owner, 'cmp-a'), await appOf(t, owner, 'cmp-b')]
    const a1 = await pasteDocument(t, owner, 'A v1', SAMPLE_CONTRACT, appA)
    const a2 = await pasteDocument(t, owner, 'A v2', REVISED, appA)
    const b1 = await pasteDocument(t, owner, 'B v1', SAMPLE_CONTRACT, appB)
    const b2 = await pasteDocument(t, owner, 'B v2', REVISED, appB)
    const firmWide = await pasteDocument(t, owner, 'Firm v1', SAMPLE_CONTRACT)
    const ofB = await compare(owner, b1, b2)
    const mixed = await compare(owner, a1, firmWide)
    const { token } = await mintToken(t, owner, {
      app_id: appA,
      scope: 'read write',
      ttl_seconds: 600,
    })
    const headers = { authorization: `Bearer ${token}`, origin: owner.headers.origin }
    const made = await t.app.inject({
      method: 'POST',
      url: comparisonsUrl(owner),
      headers,
      payload: { baseDocumentId: a1, revisedDocumentId: a2 },
    })
    expect(made.statusCode, made.body).toBe(202)
    expect(made.json()).toMatchObject({ appId: appA })
    for (const [base, revised] of [
      [a1, b2],
      [a1, firmWide],
    ] as const) {
      const crossing = await t.app.inject({
        method: 'POST',
        url: comparisonsUrl(owner),
        headers,
        payload: { baseDocumentId: base, revisedDocumentId: revised },
      })
      expect(crossing.statusCode).toBe(404)
    }
    const list = (await t.app.inject({ url: comparisonsUrl(owner), headers })).json() as {
      items: { id: string }[]
    }
    expect(list.items.map((c) => c.id)).toEqual([made.json().id])
    // Its comparison's job is its app's (job-app-id.ts); another app's comparison's job is not.
    const jobsUrl = `/api/v1/orgs/${owner.orgId}/jobs`
    const ownJob = await t.app.inject({ url: `${jobsUrl}/${made.json().job.id}`, headers })
    expect(ownJob.statusCode).toBe(200)
    const otherJob = await t.app.inject({ url: `${jobsUrl}/${ofB.job.id}`, headers })
    expect(otherJob.statusCode).toBe(404)
    for (const other of [ofB.id, mixed.id]) {
      const res = await t.app.inject({ url: `${comparisonsUrl(owner)}/${other}`, headers })
      expect(res.statusCode).toBe(404)
    }
    // The owner's comparisons: of app B's two documents, app B's; across an app and the firm, none.
    const ownerView = (
      await t.app.inject({ url: comparisonsUrl(owner), headers: owner.headers })
    ).json() as { items: { id: string; appId: string | null }[] }
    expect(ownerView.items.find((c) => c.id === ofB.id)?.appId).toBe(appB)
    expect(ownerView.items.find((c) => c.id === mixed.id)?.appId).toBeNull()
  })
})

describe('the comparison job', () => {
  /** A queued comparison of two of alice's documents, written directly (no job queued). */
  async function queuedComparison() {
    const baseDocumentId = await pasteDocument(t, alice, 'Job v1', SAMPLE_CONTRACT)
    const revisedDocumentId = await pasteDocument(t, alice, 'Job v2', REVISED)
    const [row] = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .insert(comparisons)
        .values({ orgId: alice.orgId, baseDocumentId, revisedDocumentId })
        .returning({ id: comparisons.id }),
    )
    return row!.id
  }
  const stateOf = async (id: string) => {
    const [row] = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .select({ state: comparisons.state, error: comparisons.error })
        .from(comparisons)
        .where(eq(comparisons.id, id)),
    )
    return row
  }
  const progress = () => {}

  it('fails with comparison_too_large when a text grew past the cap since it was asked for', async () => {
    const id = await queuedComparison()
    const [row] = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .select({ revised: comparisons.revisedDocumentId })
        .from(comparisons)
        .where(eq(comparisons.id, id)),
    )
    await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .update(documents)
        .set({ content: 'x'.repeat(1_000_001) })
        .where(eq(documents.id, row!.revised)),
    )
    const pool = { run: () => Promise.reject(new Error('never reached')) } as unknown as WorkerPool
    await expect(
      runComparison({ db: t.database.db, pool }, principalOf(alice), id, {
        signal: new AbortController().signal,
        progress,
      }),
    ).rejects.toMatchObject({ code: 'comparison_too_large' })
    expect(await stateOf(id)).toMatchObject({ state: 'failed' })
  })

  it('marks its comparison failed with a safe reason when the engine fails, and ends with comparison_failed', async () => {
    const id = await queuedComparison()
    const pool = {
      run: () => Promise.reject(new Error('internal detail at /srv/x')),
    } as unknown as WorkerPool
    await expect(
      runComparison({ db: t.database.db, pool }, principalOf(alice), id, {
        signal: new AbortController().signal,
        progress,
      }),
    ).rejects.toMatchObject({ code: 'comparison_failed' })
    const row = await stateOf(id)
    expect(row).toMatchObject({ state: 'failed' })
    expect(row?.error).not.toContain('/srv/x')
  })

  it('is answered as failed once its job was cancelled before it ran', async () => {
    const baseId = await pasteDocument(t, alice, 'Cancel v1', SAMPLE_CONTRACT)
    const revisedId = await pasteDocument(t, alice, 'Cancel v2', REVISED)
    const created = await compare(alice, baseId, revisedId)
    // Its job ends first (no writer races the rows below), then is made a job cancelled while
    // queued: the comparison row as such a job leaves it.
    await finishedJob(t, alice, created.job.id)
    await withTenant(t.database.db, { orgId: alice.orgId }, async (tx) => {
      await tx
        .update(jobs)
        .set({ status: 'cancelled', finishedAt: new Date() })
        .where(eq(jobs.id, created.job.id))
      await tx.update(comparisons).set({ state: 'queued' }).where(eq(comparisons.id, created.id))
    })
    const res = await t.app.inject({
      url: `${comparisonsUrl(alice)}/${created.id}`,
      headers: alice.headers,
    })
    expect(res.json()).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('stopped before it finished'),
      job: { status: 'cancelled' },
    })
    // The list says so too, not "queued".
    const list = await t.app.inject({ url: comparisonsUrl(alice), headers: alice.headers })
    expect(
      (list.json() as { items: { id: string; state: string }[] }).items.find(
        (item) => item.id === created.id,
      ),
    ).toMatchObject({ state: 'failed' })
  })

  it('refuses a document without text yet (a scan waiting for OCR) with no_text', async () => {
    const baseId = await pasteDocument(t, alice, 'Text v1', SAMPLE_CONTRACT)
    const scanId = await pasteDocument(t, alice, 'Scan v2', REVISED)
    await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .update(documents)
        .set({ content: '', textStatus: 'empty' })
        .where(eq(documents.id, scanId)),
    )
    const res = await t.app.inject({
      method: 'POST',
      url: comparisonsUrl(alice),
      headers: alice.headers,
      payload: { baseDocumentId: baseId, revisedDocumentId: scanId },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'no_text', detail: expect.stringContaining('OCR') })
  })

  it('leaves its comparison failed, not running, when it is cancelled', async () => {
    const id = await queuedComparison()
    const stop = new AbortController()
    const pool = {
      run: () => {
        stop.abort(new Error('cancelled'))
        return Promise.reject(stop.signal.reason as Error)
      },
    } as unknown as WorkerPool
    await expect(
      runComparison({ db: t.database.db, pool }, principalOf(alice), id, {
        signal: stop.signal,
        progress,
      }),
    ).rejects.toThrow('cancelled')
    expect(await stateOf(id)).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('stopped before it finished'),
    })
  })
})

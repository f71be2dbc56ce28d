import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { makeScannedPdf, SAMPLE_CONTRACT, uploadForm } from '../../test/sample-files'
import type { AnalysisResult } from '../../ai/analyzer/types'
import { auditLogs } from '../../db/schema'
import { withTenant } from '../../db/tenant'

let t: TestApp
let alice: TestMember
let mallory: TestMember
let documentId: string

beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t)
  mallory = await signedInMember(t)
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${alice.orgId}/documents/text`,
    headers: alice.headers,
    payload: { title: 'Northwind MSA', content: SAMPLE_CONTRACT },
  })
  documentId = res.json().id
})
afterAll(() => t.close())

const analysesUrl = (m: TestMember, id = documentId) =>
  `/api/v1/orgs/${m.orgId}/documents/${id}/analyses`

/** Every quoted span of a result, with the text it claims to quote (if any). */
function spansOf(result: AnalysisResult): { start: number; end: number; text?: string }[] {
  const k = result.keyTerms
  const terms = [
    k.agreementDate,
    k.effectiveDate,
    k.expirationDate,
    k.governingLaw,
    k.renewalTerm,
    k.noticePeriod,
  ]
  return [
    ...result.summary.sentences,
    ...(result.summary.dealSheet?.lines.flatMap((line) => line.citations) ?? []),
    ...(result.summary.dealSheet?.attention.flatMap((point) => point.citations) ?? []),
    ...result.clauses,
    // An absent clause is reported without a citation (decision 0066): nothing to quote.
    ...result.risks.filter((risk) => !risk.absent),
    ...k.parties,
    ...terms.filter((term) => term !== null),
  ]
}

/**
 * Asks for an analysis of `id` as `m` (202 with its job, whatever the length), waits for the job
 * and returns the stored analysis its result names.
 */
async function analyse(m: TestMember, id: string, kind: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: analysesUrl(m, id),
    headers: m.headers,
    payload: { kind },
  })
  expect(res.statusCode).toBe(202)
  expect(res.json()).toMatchObject({ kind: 'analysis', subjectId: id })
  const job = await finishedJob(t, m, res.json().id)
  expect(job).toMatchObject({ status: 'succeeded', errorCode: null })
  const list = await t.app.inject({ url: `${analysesUrl(m, id)}?limit=100`, headers: m.headers })
  const items = list.json().items as {
    id: string
    kind: string
    engine: string
    result: AnalysisResult
  }[]
  const analysis = items.find((a) => a.id === job.result?.analysisId)
  expect(analysis).toBeDefined()
  return analysis!
}

describe('document analysis API', () => {
  it("runs a short document's analysis as a job too (202), whose every span quotes the document exactly", async () => {
    const analysis = await analyse(alice, documentId, 'full')
    expect(analysis).toMatchObject({ kind: 'full', engine: 'local' })
    const { result } = analysis
    // A contract's summary is its deal sheet (decision 0065): every line filled or 'Not found'.
    expect(result.summary.dealSheet?.lines.length).toBeGreaterThan(5)
    expect(result.summary.dealSheet?.lines.some((line) => line.value !== null)).toBe(true)
    expect(result.clauses.length).toBeGreaterThan(0)
    expect(result.keyTerms.governingLaw?.value).toBe('New York')
    expect(result.keyTerms.parties.map((p) => p.name).join(' | ')).toMatch(/Northwind Analytics/)
    const spans = spansOf(result)
    expect(spans.length).toBeGreaterThan(5)
    for (const span of spans) {
      expect(span.start).toBeGreaterThanOrEqual(0)
      expect(span.end).toBeLessThanOrEqual(SAMPLE_CONTRACT.length)
      expect(span.end).toBeGreaterThan(span.start)
      if (span.text !== undefined)
        expect(span.text).toBe(SAMPLE_CONTRACT.slice(span.start, span.end))
    }
    for (const clause of result.clauses)
      expect(clause.text).toBe(SAMPLE_CONTRACT.slice(clause.start, clause.end))
  })

  it('lists the analyses of a document newest first and audits each run', async () => {
    // A document of its own, so the list holds exactly the runs of this test.
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents/text`,
      headers: alice.headers,
      payload: { title: 'Listing MSA', content: SAMPLE_CONTRACT },
    })
    const ownDocument: string = created.json().id
    for (const kind of ['full', 'summarize']) await analyse(alice, ownDocument, kind)
    const res = await t.app.inject({ url: analysesUrl(alice, ownDocument), headers: alice.headers })
    const kinds = (res.json().items as { kind: string }[]).map((a) => a.kind)
    expect(kinds).toEqual(['summarize', 'full'])
    expect(res.json().total).toBe(2)
    const second = await t.app.inject({
      url: `${analysesUrl(alice, ownDocument)}?limit=1&offset=1`,
      headers: alice.headers,
    })
    expect(second.json()).toMatchObject({ items: [{ kind: 'full' }], total: 2 })
    const audit = await withTenant(t.database.db, alice, (tx) => tx.select().from(auditLogs))
    const runs = audit.filter(
      (a) =>
        a.action === 'analysis.create' &&
        (a.meta as { documentId?: string }).documentId === ownDocument,
    )
    expect(runs.map((a) => (a.meta as { kind: string }).kind).sort()).toEqual(['full', 'summarize'])
    expect(audit.filter((a) => a.action === 'organization.create')).toMatchObject([
      { actorType: 'user', actorId: alice.userId, targetId: alice.orgId },
    ])
  })

  it("refuses to analyse or list another org's document (404 problem)", async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({
        method,
        url: analysesUrl(mallory),
        headers: mallory.headers,
        payload: method === 'POST' ? { kind: 'full' } : undefined,
      })
      expect(res.statusCode).toBe(404)
      expect(res.body).not.toContain('Northwind')
    }
  })

  it("ends the job with the engine's failure code and a clear detail, hiding its internal error", async () => {
    const failing = await buildTestApp({
      analyzer: {
        engine: 'broken',
        analyze: () => Promise.reject(new Error('getaddrinfo ENOTFOUND llm.internal.firm')),
      },
    })
    try {
      const owner = await signedInMember(failing)
      const doc = await failing.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${owner.orgId}/documents/text`,
        headers: owner.headers,
        payload: { title: 'x', content: SAMPLE_CONTRACT },
      })
      const res = await failing.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${owner.orgId}/documents/${doc.json().id}/analyses`,
        headers: owner.headers,
        payload: { kind: 'full' },
      })
      expect(res.statusCode).toBe(202)
      const job = await finishedJob(failing, owner, res.json().id)
      expect(job).toMatchObject({ status: 'failed', errorCode: 'analysis_failed' })
      expect(job.error).toMatch(/analysis engine failed/)
      expect(JSON.stringify(job)).not.toContain('llm.internal')
    } finally {
      await failing.close()
    }
  })

  it('rejects an unknown analysis kind with a 400 problem', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: analysesUrl(alice),
      headers: alice.headers,
      payload: { kind: 'poetry' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('explains that a document without text cannot be analysed', async () => {
    const scan = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents`,
      headers: alice.headers,
      payload: uploadForm(await makeScannedPdf(), 'scan.pdf'),
    })
    const res = await t.app.inject({
      method: 'POST',
      url: analysesUrl(alice, scan.json().id),
      headers: alice.headers,
      payload: { kind: 'full' },
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().detail).toMatch(/no text/)
  })
})

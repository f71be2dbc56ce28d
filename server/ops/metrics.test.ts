/**
 * `/metrics` (issue 28): behind METRICS_TOKEN as a bearer credential; HTTP latency by route
 * pattern (never the raw URL), job runs by kind and outcome, the worker pool's queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'
import { addIndexedDocument } from '../test/indexed-document'

const TOKEN = 'metrics-token-metrics-token-metrics-token'

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp({ metricsToken: TOKEN })
  alice = await signedInMember(t, 'Measured Firm')
})
afterAll(() => t.close())

const scrape = (authorization?: string) =>
  t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} })

describe('GET /metrics', () => {
  it('answers a missing or wrong token with a 401 problem', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, 'Bearer ']) {
      const res = await scrape(authorization)
      expect(res.statusCode, authorization).toBe(401)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json()).toMatchObject({ status: 401, code: 'unauthenticated' })
      expect(res.body).not.toContain('http_request_duration_seconds')
    }
  })

  it('counts requests by route pattern, job runs by kind, and the worker pool queue', async () => {
    const id = await addIndexedDocument(t, alice, 'Lease', 'The tenant pays the rent monthly.')
    const read = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/documents/${id}?secret=abc`,
      headers: alice.headers,
    })
    expect(read.statusCode).toBe(200)
    await t.app.inject({ url: '/no/such/page-with-an-id-1234' })

    const res = await scrape(`Bearer ${TOKEN}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    const text = res.body
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/orgs\/:orgId\/documents\/:documentId",status_code="200"\} 1/,
    )
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="unmatched",status_code="404"\}/,
    )
    // Never the raw URL: no organisation or document id, no query value, no unknown path.
    for (const raw of [alice.orgId, id, 'abc', 'page-with-an-id-1234'])
      expect(text).not.toContain(raw)
    expect(text).toMatch(
      /lexdesk_jobs_finished_total\{kind="document-passages",outcome="succeeded"\} [1-9]/,
    )
    expect(text).toMatch(
      /lexdesk_job_duration_seconds_count\{kind="document-passages",outcome="succeeded"\} [1-9]/,
    )
    expect(text).toMatch(/^lexdesk_worker_pool_queue_length \d+$/m)
    expect(text).toMatch(/^process_cpu_seconds_total /m)
  })
})

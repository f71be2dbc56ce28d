/**
 * JSON logs with a request id that follows a job (issue 28): the job records the id of the
 * request that queued it, and the lines logged while it runs carry that id and the job's; no
 * line holds the session cookie or the document's text.
 */
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'
import { createLogger } from '../http/logger'
import { jobs } from '../db/schema'

const lines: string[] = []
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
    done()
  },
})

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp({ logger: createLogger({ level: 'info', stream }) })
  alice = await signedInMember(t, 'Traced Firm')
})
afterAll(() => t.close())

describe('the request id in the logs', () => {
  it('follows a request into the job it queued, and the lines hold no secret', async () => {
    const requestId = `trace-${crypto.randomUUID()}`
    const text = 'Confidential settlement figure of 4,250,000 euros.'
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents/text`,
      headers: { ...alice.headers, 'x-request-id': requestId },
      payload: { title: 'Settlement', content: text },
    })
    expect(res.statusCode).toBe(201)
    expect(res.headers['x-request-id']).toBe(requestId)
    const [job] = await t.database.db
      .select({ id: jobs.id, requestId: jobs.requestId })
      .from(jobs)
      .where(eq(jobs.subjectId, (res.json() as { id: string }).id))
    expect(job?.requestId).toBe(requestId)

    const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    await expect
      .poll(() => parsed().find((l) => l.msg === 'job run ended' && l.jobId === job?.id))
      .toMatchObject({ reqId: requestId, kind: 'document-passages', outcome: 'succeeded' })
    expect(parsed().find((l) => l.msg === 'job run started' && l.jobId === job?.id)).toMatchObject({
      reqId: requestId,
    })
    // The request's own lines carry the same id.
    expect(parsed().some((l) => l.reqId === requestId && l.msg === 'request completed')).toBe(true)
    const cookie = String(alice.headers.cookie ?? '')
    const session = cookie.split('=').slice(1).join('=').split(';')[0] ?? ''
    expect(session.length).toBeGreaterThan(10)
    for (const line of lines) {
      expect(line).not.toContain(session)
      expect(line).not.toContain('4,250,000')
    }
  })
})

import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'

/** Released by the test: every XLSX export is being written until then. */
const gate = vi.hoisted(() => {
  let open = () => {}
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open: () => open() }
})

vi.mock('./export-review-xlsx', () => ({
  writeReviewXlsx: async (...args: unknown[]) => {
    const out = args[4] as NodeJS.WritableStream
    out.write('PK')
    // As exceljs's commit: it settles on the stream's 'finish' or 'error', never if the stream is
    // destroyed under it (a client gone).
    if ((args[1] as { orgId: string }).orgId === stalled.orgId) return new Promise<void>(() => {})
    await gate.opened
    out.end('done')
  },
}))

/** The organisation whose exports never finish writing (the client-gone test's). */
const stalled = vi.hoisted(() => ({ orgId: '' }))

let t: TestApp
let m: TestMember
let other: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  m = await signedInMember(t, 'Busy firm')
  other = await signedInMember(t, 'Other firm')
})
afterAll(() => t.close())

/** A review of one document with no column (nothing for a fill to do). */
async function emptyReview(member: TestMember) {
  const document = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${member.orgId}/documents/text`,
    headers: member.headers,
    payload: { title: 'Note', content: 'The Supplier shall deliver the goods.' },
  })
  expect(document.statusCode, document.body).toBe(201)
  const documentId = (document.json() as { id: string }).id
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${member.orgId}/reviews`,
    headers: member.headers,
    payload: {
      name: 'Empty',
      rows: { source: 'selection', documentIds: [documentId] },
      columns: [],
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

describe('XLSX exports of an organisation', () => {
  it('writes one at a time: a second answers 429 export_busy with Retry-After; CSV and other organisations are not held', async () => {
    const reviewId = await emptyReview(m)
    const url = `/api/v1/orgs/${m.orgId}/reviews/${reviewId}/export`
    const first = await t.app.inject({ url, headers: m.headers, payloadAsStream: true })
    expect(first.statusCode).toBe(200)
    const second = await t.app.inject({ url, headers: m.headers })
    expect(second.statusCode).toBe(429)
    expect(second.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(second.headers['retry-after']).toBe('30')
    expect(second.json()).toMatchObject({ code: 'export_busy' })
    expect(second.json().detail).toMatch(/Try again/)
    const csv = await t.app.inject({ url: `${url}?format=csv`, headers: m.headers })
    expect(csv.statusCode).toBe(200)
    gate.open()
    await new Promise<void>((resolve) => first.stream().on('end', resolve).resume())
    const third = await t.app.inject({ url, headers: m.headers })
    expect(third.statusCode).toBe(200)
    const otherReview = await emptyReview(other)
    const elsewhere = await t.app.inject({
      url: `/api/v1/orgs/${other.orgId}/reviews/${otherReview}/export`,
      headers: other.headers,
    })
    expect(elsewhere.statusCode).toBe(200)
  })

  it('frees the slot when the client goes away mid-download', async () => {
    const gone = await signedInMember(t, 'Gone firm')
    stalled.orgId = gone.orgId
    const reviewId = await emptyReview(gone)
    const path = `/api/v1/orgs/${gone.orgId}/reviews/${reviewId}/export`
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
    // A download whose reader reads its first bytes and then goes away.
    await new Promise<void>((resolve, reject) => {
      const req = request(`${address}${path}`, { headers: gone.headers }, (res) => {
        expect(res.statusCode).toBe(200)
        res.once('data', () => {
          req.destroy()
          resolve()
        })
      })
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)))
      req.end()
    })
    await vi.waitFor(
      async () => {
        const again = await t.app.inject({
          url: path,
          headers: gone.headers,
          payloadAsStream: true,
        })
        expect(again.statusCode).toBe(200)
        again.stream().destroy()
      },
      { timeout: 10_000, interval: 100 },
    )
  })
})

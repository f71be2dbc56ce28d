import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import {
  makeBlankPdf,
  makeCompressedBombPdf,
  makePdf,
  SAMPLE_CONTRACT,
} from '../../test/sample-files'
import { storedDocuments, uploadDocument } from '../../test/document-uploads'

let t: TestApp
let alice: TestMember

beforeAll(async () => {
  t = await buildTestApp({ extraction: { maxPdfPages: 40, timeoutSeconds: 1 } })
  alice = await signedInMember(t, 'Limits Firm')
})
afterAll(() => t.close())

const upload = (bytes: Uint8Array, fileName: string) => uploadDocument(t, alice, bytes, fileName)

const stored = () => storedDocuments(t)

describe('text extraction limits', () => {
  it('refuses a PDF over the page limit with a 413 naming the limit, storing nothing', async () => {
    const before = await stored()
    const res = await upload(await makeBlankPdf(41), 'long.pdf')
    expect(res.statusCode).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'too_many_pages' })
    expect(res.json().detail).toContain('the limit is 40 pages (MAX_PDF_PAGES)')
    expect(await stored()).toEqual(before)
  })

  it('accepts a PDF at the page limit', async () => {
    const res = await upload(await makeBlankPdf(40), 'exact.pdf')
    expect(res.statusCode).toBe(201)
  })

  it('stops a decompression bomb at the timeout with a 422, storing nothing, while the server answers', async () => {
    const before = await stored()
    const pending = upload(await makeCompressedBombPdf(20), 'bomb.pdf')
    // The bomb is on the pool (an earlier test's indexing may still run beside it) once its
    // upload has been spooled to the store, which takes a while on a busy machine; it then holds
    // a thread for the whole timeout, so the poll cannot miss it.
    await expect
      .poll(() => t.app.inject({ url: '/readyz' }).then((r) => r.json().workers.running), {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(1)
    const health = await t.app.inject({ url: '/healthz' })
    expect(health.statusCode).toBe(200)
    const res = await pending
    expect(res.statusCode).toBe(422)
    expect(res.json()).toMatchObject({ code: 'extraction_timeout' })
    expect(res.json().detail).toContain('1 seconds (EXTRACTION_TIMEOUT_S)')
    expect(await stored()).toEqual(before)
    const after = await upload(await makePdf(SAMPLE_CONTRACT), 'after.pdf')
    expect(after.statusCode).toBe(201)
  })
})

import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { storedDocuments } from '../../test/document-uploads'
import { MAX_UPLOAD_BYTES } from './schemas'
import { MAX_PASTED_CHARACTERS } from './schemas'

let t: TestApp
let alice: TestMember

beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Exact Limits Firm')
})
afterAll(() => t.close())

const stored = () => storedDocuments(t)

const BOUNDARY = 'lexdesk-limit-test'

/** A multipart body with one `file` part of `size` bytes of text (letters and newlines). */
function multipartBody(size: number): Buffer {
  const line = Buffer.from('The parties agree to the terms set out below in full.\n')
  const content = Buffer.alloc(size)
  content.fill(line)
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="long.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

/** `body` as a stream of 64 KiB pieces, which app.inject sends without a Content-Length. */
function chunked(body: Buffer): Readable {
  return Readable.from(
    (function* pieces() {
      for (let at = 0; at < body.length; at += 65_536) yield body.subarray(at, at + 65_536)
    })(),
  )
}

function sendUpload(body: Buffer | Readable) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${alice.orgId}/documents`,
    headers: { ...alice.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: body,
  })
}

function sendPaste(body: Readable) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${alice.orgId}/documents/text`,
    headers: { ...alice.headers, 'content-type': 'application/json' },
    payload: body,
  })
}

const pasteOf = (characters: number) =>
  Buffer.from(JSON.stringify({ title: 'Long paste', content: 'a'.repeat(characters) }))

describe('document limits are exact: over a limit is a 413 with nothing stored', () => {
  it.each([
    ['with a Content-Length', (body: Buffer) => body],
    ['chunked, without a Content-Length', chunked],
  ])('refuses a file one byte over 25 MB sent %s', async (_how, send) => {
    const before = await stored()
    const res = await sendUpload(send(multipartBody(MAX_UPLOAD_BYTES + 1)))
    expect(res.statusCode).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'file_too_large' })
    expect(await stored()).toEqual(before)
  })

  // Sent in one piece, the same limit is tested in document-input.test.ts.
  it('refuses a pasted text one character over 1,000,000 sent chunked, storing nothing', async () => {
    const before = await stored()
    const res = await sendPaste(chunked(pasteOf(MAX_PASTED_CHARACTERS + 1)))
    expect(res.statusCode).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'text_too_long' })
    expect(res.json().detail).toContain('1,000,000 characters')
    expect(await stored()).toEqual(before)
  })

  it('keeps a pasted text of exactly 1,000,000 characters whole, sent chunked', async () => {
    const res = await sendPaste(chunked(pasteOf(MAX_PASTED_CHARACTERS)))
    expect(res.statusCode).toBe(201)
    expect(res.json().content).toHaveLength(MAX_PASTED_CHARACTERS)
  })
})

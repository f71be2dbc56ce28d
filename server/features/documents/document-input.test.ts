import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { uploadForm } from '../../test/sample-files'
import { MAX_PASTED_CHARACTERS, PASTE_BODY_LIMIT_BYTES } from './schemas'

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Input Firm')
})
afterAll(() => t.close())

const base = () => `/api/v1/orgs/${alice.orgId}/documents`
const paste = (payload: object | string) =>
  t.app.inject({
    method: 'POST',
    url: `${base()}/text`,
    headers: { ...alice.headers, 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  })

describe('control and bidirectional characters in titles and file names', () => {
  it('removes NUL, other C0 controls and bidi overrides from a pasted title', async () => {
    const res = await paste({
      title: 'Acme\u0000 NDA\u0007 \u202Efdp.exe\u202C\u2066 draft\u2069\r\nv2',
      content: 'Mutual non-disclosure agreement.',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().title).toBe('Acme NDA fdp.exe draft v2')
  })

  it('refuses a title made only of control characters with a 400 problem', async () => {
    const res = await paste({ title: '\u0000\u202E\u0001', content: 'Some text.' })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json().detail).toContain('Give the document a title')
  })

  it('cleans the title field and the file name of an upload', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: base(),
      headers: alice.headers,
      payload: uploadForm(
        new TextEncoder().encode('Lease of the premises at 1 Main Street.'),
        'lease\u0000\u202Etxt.exe.txt',
        { title: 'Lease\u0000 \u2067renewal\u2069' },
      ),
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ title: 'Lease renewal', fileName: 'leasetxt.exe.txt' })
  })

  it('searches with a NUL in the query without failing', async () => {
    const res = await t.app.inject({ url: `${base()}?q=Acme%00NDA`, headers: alice.headers })
    expect(res.statusCode).toBe(200)
  })
})

describe('pasted text size', () => {
  it(`stores a paste of exactly ${MAX_PASTED_CHARACTERS} characters, even when every one is JSON-escaped`, async () => {
    const content = `A${'\u0001'.repeat(MAX_PASTED_CHARACTERS - 1)}`
    const body = JSON.stringify({ title: 'Longest paste', content })
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(PASTE_BODY_LIMIT_BYTES)
    const res = await paste(body)
    expect(res.statusCode).toBe(201)
    expect(res.json().content).toHaveLength(MAX_PASTED_CHARACTERS)
  })

  it('refuses one character more with a 413 problem naming the limit (over a limit is a 413)', async () => {
    const res = await paste({ title: 'Too long', content: 'x'.repeat(MAX_PASTED_CHARACTERS + 1) })
    expect(res.statusCode).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'text_too_long' })
    expect(res.json().detail).toContain(MAX_PASTED_CHARACTERS.toLocaleString('en-US'))
  })

  it('answers a body past the byte limit with a 413 problem naming the limit', async () => {
    const body = JSON.stringify({ title: 'Huge', content: 'x'.repeat(PASTE_BODY_LIMIT_BYTES) })
    const res = await paste(body)
    expect(res.statusCode).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json().detail).toContain(PASTE_BODY_LIMIT_BYTES.toLocaleString('en-US'))
  })
})

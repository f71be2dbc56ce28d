import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'
import { uploadForm } from '../test/sample-files'
import { contentDisposition, FILE_CSP, INLINE_MEDIA_TYPES } from './file-download'
import { sniffAudio } from './sniff-audio'
import { pcmToWav } from '../ai/speech/audio'

describe('contentDisposition', () => {
  it('gives an ASCII fallback and an RFC 5987 name, with no quote, slash or control character', () => {
    expect(contentDisposition('attachment', 'Lease "final"/v2\r\n<é>.pdf')).toBe(
      `attachment; filename="Lease__final__v2_____.pdf"; filename*=UTF-8''Lease%20_final__v2__%3C%C3%A9%3E.pdf`,
    )
    expect(contentDisposition('inline', "a'(b)*.mp3")).toBe(
      `inline; filename="a__b__.mp3"; filename*=UTF-8''a%27%28b%29%2A.mp3`,
    )
    expect(contentDisposition('attachment', '.htaccess')).toMatch(
      /^attachment; filename="_htaccess"/,
    )
    expect(contentDisposition('attachment', '')).toMatch(/filename="download"/)
  })

  it('plays inline every audio type a recording can be stored as', async () => {
    expect(INLINE_MEDIA_TYPES.has((await sniffAudio(pcmToWav(Buffer.alloc(64)))).mime)).toBe(true)
    expect([...INLINE_MEDIA_TYPES].every((type) => type.startsWith('audio/'))).toBe(true)
  })
})

describe('file downloads under /api', () => {
  let t: TestApp
  let alice: TestMember
  beforeAll(async () => {
    t = await buildTestApp()
    alice = await signedInMember(t)
  })
  afterAll(() => t.close())

  const expectSafe = (headers: Record<string, unknown>) => {
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['content-security-policy']).toBe(FILE_CSP)
    expect(headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+"; filename\*=/)
  }

  it("sends a document's original as a sandboxed attachment with a safe name", async () => {
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents`,
      headers: alice.headers,
      payload: uploadForm(
        new TextEncoder().encode('<script>alert(1)</script> The lease ends in June.'),
        'note <script>.html',
      ),
    })
    expect(uploaded.statusCode).toBe(201)
    const id = (uploaded.json() as { id: string }).id
    const file = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/documents/${id}/file`,
      headers: alice.headers,
    })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toMatch(/^text\/plain/)
    expectSafe(file.headers)
    expect(file.headers['content-disposition']).toContain(
      `filename="note__script_.html"; filename*=UTF-8''note%20%3Cscript%3E.html`,
    )
  })

  it("streams a byte range of a document's original as 206, and refuses one past its end", async () => {
    const text = 'The lease ends in June. Rent is due monthly.'
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/documents`,
      headers: alice.headers,
      payload: uploadForm(new TextEncoder().encode(text), 'lease.txt'),
    })
    const url = `/api/v1/orgs/${alice.orgId}/documents/${(uploaded.json() as { id: string }).id}/file`
    const whole = await t.app.inject({ url, headers: alice.headers })
    expect(whole.headers['accept-ranges']).toBe('bytes')
    expect(whole.headers['content-length']).toBe(String(text.length))
    expect(whole.body).toBe(text)
    const part = await t.app.inject({ url, headers: { ...alice.headers, range: 'bytes=4-8' } })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 4-8/${text.length}`)
    expect(part.body).toBe('lease')
    expectSafe(part.headers)
    const tail = await t.app.inject({ url, headers: { ...alice.headers, range: 'bytes=-8' } })
    expect(tail.body).toBe('monthly.')
    const outside = await t.app.inject({ url, headers: { ...alice.headers, range: 'bytes=999-' } })
    expect(outside.statusCode).toBe(416)
    expect(outside.headers['content-range']).toBe(`bytes */${text.length}`)
    expect(outside.headers['content-type']).toMatch(/^application\/problem\+json/)
  })

  it('sends the entities CSV export as a sandboxed attachment', async () => {
    const csv = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/entities/export`,
      headers: alice.headers,
    })
    expect(csv.statusCode).toBe(200)
    expectSafe(csv.headers)
    expect(csv.headers['content-disposition']).toMatch(/filename="entities-\d{4}-\d\d-\d\d\.csv"/)
  })
})

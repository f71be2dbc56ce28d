import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../test/test-app'
import { createFsBlobStore } from './fs-blob-store'
import { createBlobLinkSigner } from './signed-links'
import type { BlobStore } from './blob-store'

const SECRET = 'test-secret-test-secret-test-secret-0123456789'
const signer = createBlobLinkSigner(SECRET, TEST_ORIGIN)

let t: TestApp
let blobs: BlobStore
beforeAll(async () => {
  t = await buildTestApp()
  blobs = createFsBlobStore(t.blobDir, signer)
  await blobs.putStream(
    'orgs/o1/buckets/b1/contract.pdf',
    [Buffer.from('%PDF-1.7 lease')],
    'application/pdf',
  )
  await blobs.putStream('orgs/o2/buckets/b2/secret.txt', [Buffer.from('other firm')], 'text/plain')
})
afterAll(() => t.close())

/** The path and query of a signed URL, for app.inject. */
const local = (url: string) => url.slice(TEST_ORIGIN.length)

/** A signed URL with one query parameter replaced. */
function altered(url: string, name: string, value: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set(name, value)
  return local(parsed.toString())
}

describe('signed links on the disk driver', () => {
  it('serves the object to anyone holding the link, as a sandboxed attachment that seeks', async () => {
    const url = await blobs.signedUrl('orgs/o1/buckets/b1/contract.pdf', 3600)
    expect(url.startsWith(`${TEST_ORIGIN}/api/blob-links?`)).toBe(true)
    const res = await t.app.inject({ url: local(url) })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('%PDF-1.7 lease')
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="contract.pdf"/)
    expect(res.headers['cache-control']).toBe('no-store')
    const part = await t.app.inject({ url: local(url), headers: { range: 'bytes=0-3' } })
    expect(part.statusCode).toBe(206)
    expect(part.body).toBe('%PDF')
  })

  it('saves the download under the name the link was signed with, which cannot be changed', async () => {
    const url = await blobs.signedUrl(
      'orgs/o1/buckets/b1/contract.pdf',
      60,
      'GET',
      'Lease 2026.pdf',
    )
    const res = await t.app.inject({ url: local(url) })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Lease_2026.pdf"; filename*=UTF-8''Lease%202026.pdf`,
    )
    const renamed = await t.app.inject({ url: altered(url, 'name', 'invoice.html') })
    expect(renamed.statusCode).toBe(403)
    const unnamed = new URL(url)
    unnamed.searchParams.delete('name')
    expect((await t.app.inject({ url: local(unnamed.toString()) })).statusCode).toBe(403)
  })

  it('refuses an expired link with 403', async () => {
    const issued = new Date(Date.now() - 7200_000)
    const url = signer.sign('orgs/o1/buckets/b1/contract.pdf', 3600, 'GET', { now: issued })
    const res = await t.app.inject({ url: local(url) })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ detail: 'This link has expired.' })
  })

  it('refuses a link whose signature, key or expiry was changed with 403', async () => {
    const url = await blobs.signedUrl('orgs/o1/buckets/b1/contract.pdf', 60)
    const signature = new URL(url).searchParams.get('signature')!
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'AB' : 'AA'}`
    const later = String(Number(new URL(url).searchParams.get('expires')) + 86_400)
    for (const attempt of [
      altered(url, 'signature', flipped),
      altered(url, 'signature', ''),
      altered(url, 'key', 'orgs/o2/buckets/b2/secret.txt'),
      altered(url, 'key', 'orgs/o1/buckets/b1/../../../o2/buckets/b2/secret.txt'),
      altered(url, 'expires', later),
      local(url).replace(/&signature=[^&]*/, ''),
    ]) {
      const res = await t.app.inject({ url: attempt })
      expect(res.statusCode, attempt).toBe(403)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.body).not.toContain('other firm')
    }
  })

  it('refuses another method with 403, and writes only through a link signed for PUT', async () => {
    const read = await blobs.signedUrl('orgs/o1/buckets/b1/contract.pdf', 60)
    const overwrite = await t.app.inject({ method: 'PUT', url: local(read), payload: 'gone' })
    expect(overwrite.statusCode).toBe(403)
    expect((await blobs.head('orgs/o1/buckets/b1/contract.pdf'))?.size).toBe(14)

    const write = await blobs.signedUrl('orgs/o1/buckets/b1/new.json', 60, 'PUT')
    const stored = await t.app.inject({
      method: 'PUT',
      url: local(write),
      headers: { 'content-type': 'application/json' },
      payload: '{"a":1}',
    })
    expect(stored.statusCode).toBe(200)
    expect(await blobs.head('orgs/o1/buckets/b1/new.json')).toMatchObject({
      size: 7,
      contentType: 'application/json',
    })
    expect((await t.app.inject({ url: local(write) })).statusCode).toBe(403)
  })

  it('answers 404 for a valid link to an object that is gone', async () => {
    const url = await blobs.signedUrl('orgs/o1/buckets/b1/missing.txt', 60)
    expect((await t.app.inject({ url: local(url) })).statusCode).toBe(404)
  })

  it('refuses to sign an unsafe key or a life outside 1 s to a week', async () => {
    await expect(blobs.signedUrl('orgs/../x', 60)).rejects.toThrow(/Unsafe/)
    await expect(blobs.signedUrl('orgs/o1/x', 0)).rejects.toThrow(/seconds/)
    await expect(blobs.signedUrl('orgs/o1/x', 8 * 24 * 3600)).rejects.toThrow(/seconds/)
  })
})

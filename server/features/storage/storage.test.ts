/**
 * Storage buckets and objects end to end through the real app (issue 24): bucket names and
 * roles, uploads typed from their bytes and listed by name with paging, downloads with the safe
 * headers, signed links that reach only their own object, the organisation's quota (413, nothing
 * stored), deletion rights, and confinement to the organisation (routes and RLS).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { createFsBlobStore } from '../../blob/fs-blob-store'
import { recordings, storageObjects } from '../../db/schema'
import { VOICE_BUCKET_ID } from './voice-bucket'
import { withTenant } from '../../db/tenant'
import { uploadForm } from '../../test/sample-files'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../../test/test-app'

/** A quota small enough to reach in a test (each test has an organisation of its own). */
const QUOTA = 64 * 1024

/** Objects an organisation may keep here (no other test needs more). */
const OBJECT_QUOTA = 3

const t: TestApp = await buildTestApp({
  storageQuotaBytes: QUOTA,
  storageQuotaObjects: OBJECT_QUOTA,
})
afterAll(() => t.close())

const storageUrl = (m: Pick<TestMember, 'orgId'>) => `/api/v1/orgs/${m.orgId}/storage`
const text = (s: string) => new TextEncoder().encode(s)
/** The EBML magic number a WebM recording starts with. */
const WEBM = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4])
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
])

async function createBucket(
  by: TestMember,
  name = `b-${crypto.randomUUID().slice(0, 8)}`,
  options: { public?: boolean } = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${storageUrl(by)}/buckets`,
    headers: by.headers,
    payload: { name, ...options },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { id: string; name: string }
}

function upload(
  by: TestMember,
  bucketId: string,
  bytes: Uint8Array,
  fileName: string,
  fields: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `${storageUrl(by)}/buckets/${bucketId}/objects`,
    headers: by.headers,
    payload: uploadForm(bytes, fileName, fields),
  })
}

async function uploaded(
  by: TestMember,
  bucketId: string,
  bytes: Uint8Array,
  fileName: string,
  fields: Record<string, string> = {},
) {
  const res = await upload(by, bucketId, bytes, fileName, fields)
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as {
    id: string
    name: string
    size: number
    contentType: string
    createdBy: string | null
  }
}

async function list(by: TestMember, bucketId: string, query = '') {
  const res = await t.app.inject({
    url: `${storageUrl(by)}/buckets/${bucketId}/objects${query}`,
    headers: by.headers,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { items: { name: string; size: number }[]; nextCursor: string | null }
}

/** The keys of organisation `orgId`'s bucket files in the blob store. */
async function bucketFiles(orgId: string): Promise<string[]> {
  const keys: string[] = []
  for await (const blob of createFsBlobStore(t.blobDir).list(`orgs/${orgId}/buckets/`))
    keys.push(blob.key)
  return keys
}

describe('buckets', () => {
  it('lets admins create and delete buckets, members only list them', async () => {
    const owner = await signedInMember(t)
    const member = await signedInWithRole(t, owner.orgId, 'member')
    const bucket = await createBucket(owner, 'contracts-2026')
    const refused = await t.app.inject({
      method: 'POST',
      url: `${storageUrl(member)}/buckets`,
      headers: member.headers,
      payload: { name: 'mine' },
    })
    expect(refused.statusCode).toBe(403)
    const listed = await t.app.inject({
      url: `${storageUrl(member)}/buckets`,
      headers: member.headers,
    })
    expect(listed.json()).toMatchObject({
      items: [
        { name: 'voice-recordings', readOnly: true },
        { id: bucket.id, name: 'contracts-2026', readOnly: false },
      ],
    })
    const memberDelete = await t.app.inject({
      method: 'DELETE',
      url: `${storageUrl(member)}/buckets/${bucket.id}`,
      headers: member.headers,
    })
    expect(memberDelete.statusCode).toBe(403)
    await uploaded(member, bucket.id, text('x'), 'a.txt')
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${storageUrl(owner)}/buckets/${bucket.id}`,
      headers: owner.headers,
    })
    expect(deleted.statusCode).toBe(204)
    expect(await bucketFiles(owner.orgId)).toEqual([])
  })

  it.each(['ab', 'Upper', 'under_score', 'a'.repeat(64), 'dots.here', ''])(
    'refuses the bucket name %j with a 400',
    async (name) => {
      const owner = await signedInMember(t)
      const res = await t.app.inject({
        method: 'POST',
        url: `${storageUrl(owner)}/buckets`,
        headers: owner.headers,
        payload: { name },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'validation_failed' })
    },
  )

  it('refuses a second bucket of the same name with a 409', async () => {
    const owner = await signedInMember(t)
    await createBucket(owner, 'same-name')
    const again = await t.app.inject({
      method: 'POST',
      url: `${storageUrl(owner)}/buckets`,
      headers: owner.headers,
      payload: { name: 'same-name' },
    })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'bucket_exists' })
  })
})

describe('objects', () => {
  it('stores uploads under their prefix, typed from their bytes, listed by name with paging', async () => {
    const owner = await signedInMember(t)
    const bucket = await createBucket(owner)
    const png = await upload(owner, bucket.id, PNG, 'picture.txt', { prefix: 'img/' })
    expect(png.json()).toMatchObject({ name: 'img/picture.txt', contentType: 'image/png' })
    const note = await uploaded(owner, bucket.id, text('Dear client'), 'b.txt')
    expect(note.contentType).toBe('text/plain; charset=utf-8')
    await uploaded(owner, bucket.id, text('Another'), 'a.txt')
    const first = await list(owner, bucket.id, '?limit=2')
    expect(first.items.map((o) => o.name)).toEqual(['a.txt', 'b.txt'])
    expect(first.nextCursor).toBe('b.txt')
    const second = await list(owner, bucket.id, `?limit=2&cursor=${first.nextCursor}`)
    expect(second).toEqual({
      items: [expect.objectContaining({ name: 'img/picture.txt' })],
      nextCursor: null,
    })
    const inFolder = await list(owner, bucket.id, '?prefix=img/')
    expect(inFolder.items.map((o) => o.name)).toEqual(['img/picture.txt'])
  })

  it('overwrites an object of the same name and keeps one file', async () => {
    const owner = await signedInMember(t)
    const bucket = await createBucket(owner)
    const first = await uploaded(owner, bucket.id, text('version one'), 'memo.txt')
    const second = await uploaded(owner, bucket.id, text('version two, longer'), 'memo.txt')
    expect(second.id).toBe(first.id)
    expect((await list(owner, bucket.id)).items).toEqual([
      expect.objectContaining({ name: 'memo.txt', size: 19 }),
    ])
    expect(await bucketFiles(owner.orgId)).toHaveLength(1)
  })

  it('refuses a member replacing someone else’s object with a 403, keeping its bytes, its creator and no new file', async () => {
    const owner = await signedInMember(t)
    const mallory = await signedInWithRole(t, owner.orgId, 'member')
    const bucket = await createBucket(owner)
    const original = await uploaded(owner, bucket.id, text('the signed original'), 'nda.txt')
    const res = await upload(mallory, bucket.id, text('forged'), 'nda.txt')
    expect(res.statusCode, res.body).toBe(403)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'forbidden' })
    expect(res.json().detail).toMatch(
      /Only whoever uploaded "nda.txt", or an admin, can replace it/,
    )
    const kept = await t.app.inject({
      url: `${storageUrl(owner)}/objects/${original.id}`,
      headers: owner.headers,
    })
    expect(kept.body).toBe('the signed original')
    expect((await list(owner, bucket.id)).items).toEqual([
      expect.objectContaining({ id: original.id, createdBy: owner.userId }),
    ])
    expect(await bucketFiles(owner.orgId)).toHaveLength(1)
    // Nor, having failed to take it over, may the member delete it.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${storageUrl(mallory)}/objects/${original.id}`,
      headers: mallory.headers,
    })
    expect(del.statusCode).toBe(403)
  })

  it('keeps an object’s creator when it is replaced, by its creator or an admin', async () => {
    const owner = await signedInMember(t)
    const alice = await signedInWithRole(t, owner.orgId, 'member')
    const bucket = await createBucket(owner)
    const first = await uploaded(alice, bucket.id, text('draft'), 'brief.txt')
    expect(await uploaded(alice, bucket.id, text('draft two'), 'brief.txt')).toMatchObject({
      id: first.id,
      createdBy: alice.userId,
    })
    expect(
      await uploaded(owner, bucket.id, text('edited by the partner'), 'brief.txt'),
    ).toMatchObject({ id: first.id, createdBy: alice.userId })
    // The admin's overwrite did not take the object from its creator.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${storageUrl(alice)}/objects/${first.id}`,
      headers: alice.headers,
    })
    expect(del.statusCode).toBe(204)
    expect(await bucketFiles(owner.orgId)).toEqual([])
  })

  it.each(['../', '/etc/', 'a/../../'])(
    'refuses the prefix %j with bad_object_name and keeps no file',
    async (prefix) => {
      const owner = await signedInMember(t)
      const bucket = await createBucket(owner)
      const res = await upload(owner, bucket.id, text('x'), 'f.txt', { prefix })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'bad_object_name' })
      expect(await bucketFiles(owner.orgId)).toEqual([])
    },
  )

  it('serves an object as an attachment with nosniff, a sandbox CSP and ranges', async () => {
    const owner = await signedInMember(t)
    const bucket = await createBucket(owner)
    const html = await uploaded(owner, bucket.id, text('<script>alert(1)</script>'), 'x.html')
    const res = await t.app.inject({
      url: `${storageUrl(owner)}/objects/${html.id}`,
      headers: owner.headers,
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('<script>alert(1)</script>')
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    })
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="x.html"/)
    const part = await t.app.inject({
      url: `${storageUrl(owner)}/objects/${html.id}`,
      headers: { ...owner.headers, range: 'bytes=0-7' },
    })
    expect(part.statusCode).toBe(206)
    expect(part.body).toBe('<script>')
  })

  it('lets members delete their own objects and admins anyone’s', async () => {
    const owner = await signedInMember(t)
    const alice = await signedInWithRole(t, owner.orgId, 'member')
    const bob = await signedInWithRole(t, owner.orgId, 'member')
    const bucket = await createBucket(owner)
    const own = await uploaded(alice, bucket.id, text('alice'), 'alice.txt')
    const other = await uploaded(alice, bucket.id, text('alice too'), 'alice-2.txt')
    const del = (by: TestMember, id: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `${storageUrl(by)}/objects/${id}`,
        headers: by.headers,
      })
    expect((await del(bob, own.id)).statusCode).toBe(403)
    expect((await del(alice, own.id)).statusCode).toBe(204)
    expect((await del(owner, other.id)).statusCode).toBe(204)
    expect((await list(owner, bucket.id)).items).toEqual([])
    expect(await bucketFiles(owner.orgId)).toEqual([])
  })
})

describe('signed links', () => {
  it('downloads with the link alone, for an hour by default; another object’s key is refused', async () => {
    const owner = await signedInMember(t)
    const bucket = await createBucket(owner)
    const a = await uploaded(owner, bucket.id, text('object A'), 'a.txt')
    const b = await uploaded(owner, bucket.id, text('object B'), 'b.txt')
    const res = await t.app.inject({
      method: 'POST',
      url: `${storageUrl(owner)}/objects/${a.id}/signed-url`,
      headers: owner.headers,
      payload: {},
    })
    expect(res.statusCode, res.body).toBe(200)
    const { url, expiresAt } = res.json() as { url: string; expiresAt: string }
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(3590_000)
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(3600_000)
    const link = new URL(url)
    const opened = await t.app.inject({ url: `${link.pathname}${link.search}` })
    expect(opened.statusCode).toBe(200)
    expect(opened.body).toBe('object A')
    // Saved under the object's name, not the uuid of its key.
    expect(opened.headers['content-disposition']).toMatch(/^attachment; filename="a.txt"/)
    const [rowB] = await withTenant(t.database.db, { orgId: owner.orgId }, (tx) =>
      tx.select().from(storageObjects),
    ).then((rows) => rows.filter((r) => r.id === b.id))
    link.searchParams.set('key', rowB?.fileKey ?? '')
    const altered = await t.app.inject({ url: `${link.pathname}${link.search}` })
    expect(altered.statusCode).toBe(403)
  })
})

describe('public buckets', () => {
  /** The public address of `name` in bucket `bucket` of `orgId` (public-object.ts), as a path. */
  const publicPath = (orgId: string, bucket: string, name: string) =>
    `/api/public/storage/${orgId}/${bucket}/${name.split('/').map(encodeURIComponent).join('/')}`

  it('serves a public bucket’s object without any credential, with the safe download headers', async () => {
    const owner = await signedInMember(t)
    const bucket = await createBucket(owner, 'press-kit', { public: true })
    const html = text('<script>alert(1)</script>')
    await uploaded(owner, bucket.id, html, 'Notice of hearing.html', { prefix: 'notices/' })
    const res = await t.app.inject({
      url: publicPath(owner.orgId, 'press-kit', 'notices/Notice of hearing.html'),
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.body).toBe('<script>alert(1)</script>')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox")
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Notice_of_hearing.html"; filename*=UTF-8''Notice%20of%20hearing.html`,
    )
    const part = await t.app.inject({
      url: publicPath(owner.orgId, 'press-kit', 'notices/Notice of hearing.html'),
      headers: { range: 'bytes=0-7' },
    })
    expect(part.statusCode).toBe(206)
    expect(part.body).toBe('<script>')
  })

  it('answers 404 without a signature for a private bucket, another organisation or a bad name', async () => {
    const owner = await signedInMember(t)
    const other = await signedInMember(t)
    const privateBucket = await createBucket(owner, 'private-files')
    await uploaded(owner, privateBucket.id, text('privileged'), 'memo.txt')
    await createBucket(owner, 'open-files', { public: true })
    const shared = await createBucket(owner, 'shared', { public: true })
    await uploaded(owner, shared.id, text('public'), 'memo.txt')
    const paths = [
      publicPath(owner.orgId, 'private-files', 'memo.txt'),
      publicPath(owner.orgId, 'open-files', 'memo.txt'),
      publicPath(other.orgId, 'shared', 'memo.txt'),
      `/api/public/storage/${owner.orgId}/shared/..%2Fmemo.txt`,
    ]
    for (const url of paths) {
      const res = await t.app.inject({ url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json()).toMatchObject({ code: 'object_not_found' })
    }
    const ok = await t.app.inject({ url: publicPath(owner.orgId, 'shared', 'memo.txt') })
    expect(ok.body).toBe('public')
  })
})

describe('the storage quota', () => {
  it('refuses an upload past the quota with a 413 naming it and stores nothing', async () => {
    const owner = await signedInMember(t)
    const bucket = await createBucket(owner)
    await uploaded(owner, bucket.id, new Uint8Array(40 * 1024).fill(65), 'first.txt')
    const over = await upload(owner, bucket.id, new Uint8Array(40 * 1024).fill(66), 'second.txt')
    expect(over.statusCode).toBe(413)
    expect(over.json()).toMatchObject({ code: 'storage_quota_exceeded' })
    expect(over.json().detail).toContain(String(QUOTA))
    expect((await list(owner, bucket.id)).items.map((o) => o.name)).toEqual(['first.txt'])
    expect(await bucketFiles(owner.orgId)).toHaveLength(1)
    // Replacing an object counts only the difference.
    await uploaded(owner, bucket.id, new Uint8Array(50 * 1024).fill(67), 'first.txt')
  })

  it('refuses a new object past the object quota with a 413 naming it, storing nothing; overwrites still pass', async () => {
    const owner = await signedInMember(t)
    const first = await createBucket(owner)
    const second = await createBucket(owner)
    await uploaded(owner, first.id, text('one'), 'one.txt')
    await uploaded(owner, first.id, text('two'), 'two.txt')
    await uploaded(owner, second.id, text('three'), 'three.txt')
    const over = await upload(owner, second.id, text('four'), 'four.txt')
    expect(over.statusCode).toBe(413)
    expect(over.json()).toMatchObject({ code: 'storage_quota_exceeded' })
    expect(over.json().detail).toContain(
      `${OBJECT_QUOTA} objects, its quota (STORAGE_QUOTA_OBJECTS)`,
    )
    expect((await list(owner, second.id)).items.map((o) => o.name)).toEqual(['three.txt'])
    expect(await bucketFiles(owner.orgId)).toHaveLength(OBJECT_QUOTA)
    await uploaded(owner, second.id, text('three, again'), 'three.txt')
    expect(await bucketFiles(owner.orgId)).toHaveLength(OBJECT_QUOTA)
  })

  it('refuses a single file larger than the whole quota with the quota’s 413', async () => {
    const owner = await signedInMember(t)
    const bucket = await createBucket(owner)
    const res = await upload(owner, bucket.id, new Uint8Array(QUOTA + 10).fill(65), 'big.txt')
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'storage_quota_exceeded' })
    expect(await bucketFiles(owner.orgId)).toEqual([])
  })
})

/** A recording `by` made (its stored file and row), as the voice routes leave one. */
async function recordingOf(by: TestMember) {
  const fileKey = `orgs/${by.orgId}/voice-recordings/${by.userId}/1795000000000.webm`
  await createFsBlobStore(t.blobDir).putStream(fileKey, [WEBM], 'audio/webm')
  const [row] = await withTenant(t.database.db, { orgId: by.orgId }, (tx) =>
    tx
      .insert(recordings)
      .values({
        orgId: by.orgId,
        title: 'Memo',
        fileKey,
        mimeType: 'audio/webm',
        sizeBytes: WEBM.length,
        createdBy: by.userId,
      })
      .returning({ id: recordings.id }),
  )
  return { id: row?.id ?? '', name: `${by.userId}/1795000000000.webm` }
}

describe('the system bucket voice-recordings', () => {
  it('lists, downloads and signs the recordings, and refuses every write', async () => {
    const owner = await signedInMember(t)
    const recording = await recordingOf(owner)
    expect((await list(owner, VOICE_BUCKET_ID)).items).toEqual([
      expect.objectContaining({ id: recording.id, name: recording.name, size: WEBM.length }),
    ])
    const audio = await t.app.inject({
      url: `${storageUrl(owner)}/objects/${recording.id}`,
      headers: owner.headers,
    })
    expect(audio.statusCode).toBe(200)
    expect(audio.rawPayload).toEqual(Buffer.from(WEBM))
    const signed = await t.app.inject({
      method: 'POST',
      url: `${storageUrl(owner)}/objects/${recording.id}/signed-url`,
      headers: owner.headers,
      payload: {},
    })
    expect(signed.statusCode).toBe(200)
    const refusals = [
      await t.app.inject({
        method: 'DELETE',
        url: `${storageUrl(owner)}/objects/${recording.id}`,
        headers: owner.headers,
      }),
      await upload(owner, VOICE_BUCKET_ID, text('x'), 'x.txt'),
      await t.app.inject({
        method: 'DELETE',
        url: `${storageUrl(owner)}/buckets/${VOICE_BUCKET_ID}`,
        headers: owner.headers,
      }),
    ]
    expect(refusals.map((r) => [r.statusCode, r.json().code])).toEqual(
      Array(3).fill([403, 'bucket_read_only']),
    )
    const taken = await t.app.inject({
      method: 'POST',
      url: `${storageUrl(owner)}/buckets`,
      headers: owner.headers,
      payload: { name: 'voice-recordings' },
    })
    expect(taken.statusCode).toBe(409)
    expect((await list(owner, VOICE_BUCKET_ID)).items).toHaveLength(1)
  })
})

describe('tenancy', () => {
  it('keeps another organisation out of buckets and objects, in routes and in RLS', async () => {
    const a = await signedInMember(t, 'Firm A')
    const b = await signedInMember(t, 'Firm B')
    const bucket = await createBucket(a)
    const object = await uploaded(a, bucket.id, text('confidential'), 'secret.txt')
    const recording = await recordingOf(a)
    const asB = (method: 'GET' | 'POST' | 'DELETE', url: string) =>
      t.app.inject({
        method,
        url: `${storageUrl(b)}${url}`,
        headers: b.headers,
        payload: method === 'POST' ? {} : undefined,
      })
    expect((await asB('GET', `/buckets/${bucket.id}/objects`)).statusCode).toBe(404)
    expect((await asB('GET', `/objects/${object.id}`)).statusCode).toBe(404)
    expect((await asB('POST', `/objects/${object.id}/signed-url`)).statusCode).toBe(404)
    expect((await asB('DELETE', `/objects/${object.id}`)).statusCode).toBe(404)
    expect((await asB('DELETE', `/buckets/${bucket.id}`)).statusCode).toBe(404)
    expect((await upload(b, bucket.id, text('x'), 'in.txt')).statusCode).toBe(404)
    const listed = await t.app.inject({ url: `${storageUrl(b)}/buckets`, headers: b.headers })
    expect(listed.json()).toMatchObject({ items: [{ name: 'voice-recordings' }] })
    expect((await asB('GET', `/objects/${recording.id}`)).statusCode).toBe(404)
    expect((await list(b, VOICE_BUCKET_ID)).items).toEqual([])
    const seenByB = await withTenant(t.database.db, { orgId: b.orgId }, (tx) =>
      tx.select().from(storageObjects),
    )
    expect(seenByB).toEqual([])
    await expect(
      withTenant(t.database.db, { orgId: b.orgId }, (tx) =>
        tx.insert(storageObjects).values({
          orgId: a.orgId,
          bucketId: bucket.id,
          name: 'planted.txt',
          fileKey: `orgs/${a.orgId}/buckets/${bucket.id}/planted`,
          sizeBytes: 1,
          contentType: 'text/plain',
        }),
      ),
    ).rejects.toThrow()
    expect(await bucketFiles(b.orgId)).toEqual([])
  })
})

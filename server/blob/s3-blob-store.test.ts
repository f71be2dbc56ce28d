import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import S3rver from 's3rver'
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createS3BlobStore, createS3Client } from './s3-blob-store'
import type { BlobStore } from './blob-store'
import { describeBlobStoreContract } from './blob-store-contract'

// An S3-compatible server of our own on loopback, storing under a temporary folder: `npm test`
// needs no outside service. Each test gets a bucket of its own.
let dir: string
let server: S3rver
let client: S3Client
let store: BlobStore
let buckets = 0

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-s3rver-'))
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir })
  const address = (await server.run()) as AddressInfo
  client = createS3Client({
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket: 'unused',
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  })
})
afterAll(async () => {
  client.destroy()
  await server.close()
  await rm(dir, { recursive: true, force: true })
})
beforeEach(async () => {
  const bucket = `contract-${++buckets}-${crypto.randomUUID().slice(0, 8)}`
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  store = createS3BlobStore(client, { bucket })
})

describeBlobStoreContract('s3', () => store)

describe('s3 blob store', () => {
  it('sends a source larger than one part as a multipart upload and reads it back whole', async () => {
    const part = 8 * 1024 * 1024
    async function* big() {
      for (let i = 0; i < 3; i++) yield new Uint8Array(part).fill(i + 1)
      yield new Uint8Array(10).fill(9)
    }
    expect(
      await store.putStream('orgs/a/buckets/b/big.bin', big(), 'application/octet-stream'),
    ).toBe(3 * part + 10)
    expect((await store.head('orgs/a/buckets/b/big.bin'))?.size).toBe(3 * part + 10)
    const tail = await store.getStream('orgs/a/buckets/b/big.bin', {
      start: 2 * part - 1,
      end: 2 * part,
    })
    const bytes: number[] = []
    for await (const chunk of tail!.stream) bytes.push(...(chunk as Uint8Array))
    expect(bytes).toEqual([2, 3])
    expect(tail!.head.size).toBe(3 * part + 10)
  })

  it('presigns a GET that reads the object and a PUT that writes one, with their expiry', async () => {
    await store.putStream('orgs/a/buckets/b/note.txt', [Buffer.from('signed')], 'text/plain')
    const read = await store.signedUrl('orgs/a/buckets/b/note.txt', 3600)
    expect(new URL(read).searchParams.get('X-Amz-Expires')).toBe('3600')
    expect(await (await fetch(read)).text()).toBe('signed')
    const write = await store.signedUrl('orgs/a/buckets/b/up.txt', 60, 'PUT')
    expect((await fetch(write, { method: 'PUT', body: 'uploaded' })).ok).toBe(true)
    expect((await store.head('orgs/a/buckets/b/up.txt'))?.size).toBe(8)
    await expect(store.signedUrl('orgs/../x', 60)).rejects.toThrow(/Unsafe/)
  })

  it('stores nothing when a source fails after its first parts were sent', async () => {
    const part = 8 * 1024 * 1024
    async function* failing() {
      for (let i = 0; i < 3; i++) yield new Uint8Array(part)
      throw new Error('connection reset')
    }
    await expect(store.putStream('orgs/a/imports/big.csv', failing(), 'text/csv')).rejects.toThrow(
      'connection reset',
    )
    expect(await store.head('orgs/a/imports/big.csv')).toBeNull()
  })
})

import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFsBlobStore } from './fs-blob-store'
import type { BlobStore } from './blob-store'

let root: string
let store: BlobStore
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-blob-test-'))
  store = createFsBlobStore(root)
})
afterEach(() => rm(root, { recursive: true, force: true }))

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const info of store.list(prefix)) keys.push(info.key)
  return keys.sort()
}

describe('fs blob store', () => {
  it('stores, reads and deletes an object with its content type', async () => {
    await store.put('orgs/a/documents/1/original', new Uint8Array([1, 2, 3]), 'application/pdf')
    expect(await store.get('orgs/a/documents/1/original')).toEqual({
      data: new Uint8Array([1, 2, 3]),
      contentType: 'application/pdf',
    })
    await store.delete('orgs/a/documents/1/original')
    expect(await store.get('orgs/a/documents/1/original')).toBeNull()
  })

  it('streams an object in and out, counting its bytes', async () => {
    async function* chunks() {
      yield new Uint8Array([1, 2])
      yield new Uint8Array([3])
    }
    expect(await store.putStream('orgs/a/imports/x.csv', chunks(), 'text/csv')).toBe(3)
    const opened = await store.getStream('orgs/a/imports/x.csv')
    expect(opened?.size).toBe(3)
    const read: number[] = []
    for await (const chunk of opened?.stream ?? []) read.push(...(chunk as Buffer))
    expect(read).toEqual([1, 2, 3])
    expect(await store.get('orgs/a/imports/x.csv')).toMatchObject({ contentType: 'text/csv' })
    expect(await store.getStream('orgs/a/imports/missing.csv')).toBeNull()
  })

  it('stores nothing when the streamed source fails', async () => {
    async function* failing() {
      yield new Uint8Array([1])
      throw new Error('connection reset')
    }
    await expect(store.putStream('orgs/a/imports/y.csv', failing(), 'text/csv')).rejects.toThrow(
      'connection reset',
    )
    expect(await store.get('orgs/a/imports/y.csv')).toBeNull()
    expect(await keysUnder('orgs/a/')).toEqual([])
  })

  it('lists the objects under a prefix with their write time', async () => {
    await store.put('orgs/a/documents/1/original', new Uint8Array([1]), 'text/plain')
    await store.put('orgs/a/documents/2/original', new Uint8Array([2]), 'text/plain')
    await store.put('orgs/b/documents/3/original', new Uint8Array([3]), 'text/plain')
    expect(await keysUnder('orgs/a/')).toEqual([
      'orgs/a/documents/1/original',
      'orgs/a/documents/2/original',
    ])
    for await (const info of store.list('orgs/b/')) expect(info.updatedAt).toBeInstanceOf(Date)
    expect(await keysUnder('orgs/missing/')).toEqual([])
  })

  it('lists the leftovers of a write cut short under the key they were for', async () => {
    const folder = path.join(root, 'orgs', 'a', 'documents', '9')
    await mkdir(folder, { recursive: true })
    await writeFile(path.join(folder, 'original.0f8fad5b-d9cb-469f-a165-70867728950e.tmp'), 'x')
    await writeFile(path.join(folder, 'original.meta.json'), '{"contentType":"text/plain"}')
    expect(await keysUnder('orgs/a/')).toEqual(['orgs/a/documents/9/original'])
    expect(await store.get('orgs/a/documents/9/original')).toBeNull()
  })

  it('deletes a whole prefix and nothing beside it', async () => {
    await store.put('orgs/a/documents/1/original', new Uint8Array([1]), 'text/plain')
    await store.put('orgs/a/documents/2/original', new Uint8Array([2]), 'text/plain')
    await store.deletePrefix('orgs/a/documents/1/')
    expect(await keysUnder('orgs/a/')).toEqual(['orgs/a/documents/2/original'])
    expect(await readdir(path.join(root, 'orgs', 'a', 'documents'))).toEqual(['2'])
  })

  it('refuses keys and prefixes that could leave the store', async () => {
    await expect(store.put('../escape', new Uint8Array(), 'text/plain')).rejects.toThrow(/Unsafe/)
    await expect(store.deletePrefix('orgs/../')).rejects.toThrow(/Unsafe/)
    await expect(store.deletePrefix('orgs')).rejects.toThrow(/end in/)
  })
})

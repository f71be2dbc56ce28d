import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFsBlobStore } from './fs-blob-store'
import type { BlobStore } from './blob-store'
import { describeBlobStoreContract } from './blob-store-contract'
import { readBlob } from './read-blob'

let root: string
let store: BlobStore
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-blob-test-'))
  store = createFsBlobStore(root)
})
afterEach(() => rm(root, { recursive: true, force: true }))

describeBlobStoreContract('fs', () => store)

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const info of store.list(prefix)) keys.push(info.key)
  return keys.sort()
}

describe('fs blob store', () => {
  it('names the file holding an object, which a later write replaces', async () => {
    const key = 'orgs/a/documents/3/original'
    const file = store.localFile(key)!
    expect(path.relative(root, file)).toBe(path.join('orgs', 'a', 'documents', '3', 'original'))
    await store.putStream(key, [Buffer.from('first')], 'text/plain')
    expect(await readFile(file, 'utf8')).toBe('first')
    await store.putStream(key, [Buffer.from('second')], 'text/plain')
    expect(await readFile(file, 'utf8')).toBe('second')
  })

  it('lists the leftovers of a write cut short under the key they were for', async () => {
    const folder = path.join(root, 'orgs', 'a', 'documents', '9')
    await mkdir(folder, { recursive: true })
    await writeFile(path.join(folder, 'original.0f8fad5b-d9cb-469f-a165-70867728950e.tmp'), 'x')
    await writeFile(path.join(folder, 'original.meta.json'), '{"contentType":"text/plain"}')
    expect(await keysUnder('orgs/a/')).toEqual(['orgs/a/documents/9/original'])
    expect(await store.head('orgs/a/documents/9/original')).toBeNull()
  })

  it('removes the folder of a deleted prefix and leaves no temporary file after a failed write', async () => {
    await store.putStream('orgs/a/documents/1/original', [new Uint8Array([1])], 'text/plain')
    await store.putStream('orgs/a/documents/2/original', [new Uint8Array([2])], 'text/plain')
    await store.deletePrefix('orgs/a/documents/1/')
    expect(await readdir(path.join(root, 'orgs', 'a', 'documents'))).toEqual(['2'])
    async function* failing() {
      yield new Uint8Array([1])
      throw new Error('reset')
    }
    await expect(store.putStream('orgs/a/documents/2/other', failing(), 'x/y')).rejects.toThrow()
    expect((await readdir(path.join(root, 'orgs', 'a', 'documents', '2'))).sort()).toEqual([
      'original',
      'original.meta.json',
    ])
  })

  it('reads an object or a range of it whole, refusing more than the cap before reading', async () => {
    await store.putStream(
      'orgs/a/voice-recordings/u/1.wav',
      [Buffer.from('RIFF....WAVE')],
      'audio/wav',
    )
    expect(await readBlob(store, 'orgs/a/voice-recordings/u/1.wav', 12)).toMatchObject({
      data: new Uint8Array(Buffer.from('RIFF....WAVE')),
      head: { size: 12, contentType: 'audio/wav' },
    })
    const start = await readBlob(store, 'orgs/a/voice-recordings/u/1.wav', 4, { start: 0, end: 3 })
    expect(Buffer.from(start!.data).toString()).toBe('RIFF')
    await expect(readBlob(store, 'orgs/a/voice-recordings/u/1.wav', 11)).rejects.toThrow(/larger/)
    expect(await readBlob(store, 'orgs/a/voice-recordings/u/none.wav', 11)).toBeNull()
  })
})

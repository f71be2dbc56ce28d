/**
 * The behaviour every BlobStore driver must show, as one suite that each driver's test file runs
 * with its own factory (fs-blob-store.test.ts, s3-blob-store.test.ts): put, head, get (whole and
 * by range), stream in and out, list, delete, delete a prefix, unsafe keys refused, and a failing
 * source that stores nothing.
 */
import { describe, expect, it } from 'vitest'
import type { BlobStore } from './blob-store'

async function text(blobs: BlobStore, key: string, range?: { start: number; end: number }) {
  const opened = await blobs.getStream(key, range)
  if (!opened) return null
  const chunks: Buffer[] = []
  for await (const chunk of opened.stream) chunks.push(Buffer.from(chunk as Uint8Array))
  return Buffer.concat(chunks).toString('utf8')
}

async function keysUnder(blobs: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for await (const info of blobs.list(prefix)) keys.push(info.key)
  return keys.sort()
}

const bytes = (value: string) => [new TextEncoder().encode(value)]

/**
 * Registers the contract suite for the driver `name`; `store()` returns a store over an empty
 * place of its own (called once per test, after the driver's own beforeEach).
 */
export function describeBlobStoreContract(name: string, store: () => BlobStore): void {
  describe(`${name} blob store contract`, () => {
    it('stores an object, reports its head and streams it back', async () => {
      const blobs = store()
      const before = Date.now()
      expect(
        await blobs.putStream('orgs/a/documents/1/original', bytes('hello'), 'text/plain'),
      ).toBe(5)
      const head = await blobs.head('orgs/a/documents/1/original')
      expect(head).toMatchObject({ size: 5, contentType: 'text/plain' })
      expect(head!.updatedAt.getTime()).toBeGreaterThan(before - 5_000)
      expect(await text(blobs, 'orgs/a/documents/1/original')).toBe('hello')
    })

    it('reads a byte range, both ends included', async () => {
      const blobs = store()
      await blobs.putStream('orgs/a/voice-recordings/u/1.wav', bytes('0123456789'), 'audio/wav')
      expect(await text(blobs, 'orgs/a/voice-recordings/u/1.wav', { start: 2, end: 5 })).toBe(
        '2345',
      )
      expect(await text(blobs, 'orgs/a/voice-recordings/u/1.wav', { start: 9, end: 9 })).toBe('9')
      const opened = await blobs.getStream('orgs/a/voice-recordings/u/1.wav', { start: 0, end: 0 })
      expect(opened?.head.size).toBe(10)
      opened?.stream.destroy()
    })

    it('streams a source of many chunks in and counts its bytes', async () => {
      const blobs = store()
      async function* chunks() {
        for (let i = 0; i < 64; i++) yield new Uint8Array(16 * 1024).fill(i)
      }
      expect(await blobs.putStream('orgs/a/imports/x.csv', chunks(), 'text/csv')).toBe(1024 * 1024)
      const opened = await blobs.getStream('orgs/a/imports/x.csv')
      let read = 0
      let last = -1
      for await (const chunk of opened!.stream) {
        read += (chunk as Uint8Array).length
        last = (chunk as Uint8Array).at(-1)!
      }
      expect(read).toBe(1024 * 1024)
      expect(last).toBe(63)
    })

    it('answers null for a missing object', async () => {
      const blobs = store()
      expect(await blobs.head('orgs/a/imports/missing.csv')).toBeNull()
      expect(await blobs.getStream('orgs/a/imports/missing.csv')).toBeNull()
      await blobs.delete('orgs/a/imports/missing.csv')
    })

    it('replaces an object written again', async () => {
      const blobs = store()
      await blobs.putStream('orgs/a/buckets/b/x', bytes('first'), 'text/plain')
      await blobs.putStream('orgs/a/buckets/b/x', bytes('second!'), 'application/json')
      expect(await blobs.head('orgs/a/buckets/b/x')).toMatchObject({
        size: 7,
        contentType: 'application/json',
      })
      expect(await text(blobs, 'orgs/a/buckets/b/x')).toBe('second!')
    })

    it('stores nothing when the streamed source fails, and keeps what was there', async () => {
      const blobs = store()
      async function* failing() {
        yield new Uint8Array(300 * 1024)
        throw new Error('connection reset')
      }
      await expect(blobs.putStream('orgs/a/imports/y.csv', failing(), 'text/csv')).rejects.toThrow(
        'connection reset',
      )
      expect(await blobs.head('orgs/a/imports/y.csv')).toBeNull()
      expect(await keysUnder(blobs, 'orgs/a/')).toEqual([])
      await blobs.putStream('orgs/a/imports/z.csv', bytes('kept'), 'text/csv')
      await expect(blobs.putStream('orgs/a/imports/z.csv', failing(), 'text/csv')).rejects.toThrow(
        'connection reset',
      )
      expect(await text(blobs, 'orgs/a/imports/z.csv')).toBe('kept')
    })

    it('lists the objects under a prefix with their write time, and only those', async () => {
      const blobs = store()
      await blobs.putStream('orgs/a/documents/1/original', bytes('1'), 'text/plain')
      await blobs.putStream('orgs/a/documents/2/original', bytes('2'), 'text/plain')
      await blobs.putStream('orgs/ab/documents/3/original', bytes('3'), 'text/plain')
      expect(await keysUnder(blobs, 'orgs/a/')).toEqual([
        'orgs/a/documents/1/original',
        'orgs/a/documents/2/original',
      ])
      for await (const info of blobs.list('orgs/ab/')) expect(info.updatedAt).toBeInstanceOf(Date)
      expect(await keysUnder(blobs, 'orgs/missing/')).toEqual([])
    })

    it('deletes one object, and a whole prefix with nothing beside it', async () => {
      const blobs = store()
      await blobs.putStream('orgs/a/documents/1/original', bytes('1'), 'text/plain')
      await blobs.putStream('orgs/a/documents/1/extra', bytes('1'), 'text/plain')
      await blobs.putStream('orgs/a/documents/2/original', bytes('2'), 'text/plain')
      await blobs.putStream('orgs/a/documents/10/original', bytes('10'), 'text/plain')
      await blobs.delete('orgs/a/documents/2/original')
      expect(await blobs.head('orgs/a/documents/2/original')).toBeNull()
      await blobs.deletePrefix('orgs/a/documents/1/')
      expect(await keysUnder(blobs, 'orgs/a/')).toEqual(['orgs/a/documents/10/original'])
      await blobs.deletePrefix('orgs/nobody/')
    })

    it('refuses keys and prefixes that could leave their folder', async () => {
      const blobs = store()
      for (const key of ['../escape', '/abs', 'orgs/a/../b', 'orgs//a', 'orgs/a\\b', 'orgs/\u0001'])
        await expect(blobs.putStream(key, bytes('x'), 'text/plain')).rejects.toThrow(/Unsafe/)
      await expect(blobs.head('orgs/../x')).rejects.toThrow(/Unsafe/)
      expect(() => blobs.localFile('orgs/../x')).toThrow(/Unsafe/)
      await expect(blobs.deletePrefix('orgs/../')).rejects.toThrow(/Unsafe/)
      await expect(blobs.deletePrefix('orgs')).rejects.toThrow(/end in/)
    })
  })
}

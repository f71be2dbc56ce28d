/**
 * A stored object copied, streamed, to a private temporary file for a reader that opens files by
 * path (a pool thread's text extraction, ffmpeg), so the object is never held whole in memory by
 * the process that fetched it. The copy's folder (mode 0700) is removed when `use` settles.
 */
import { createWriteStream } from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { withTempDir } from '../temp-files/temp-root'
import type { BlobHead, BlobStore } from '../blob/blob-store'

/**
 * Runs `use` on a copy of the object under `key` (its path and head); resolves to its result, or
 * null when there is no such object. Throws an Error when the object is more than `maxBytes`.
 */
export async function withBlobCopy<T>(
  blobs: BlobStore,
  key: string,
  maxBytes: number,
  use: (file: string, head: BlobHead) => Promise<T>,
): Promise<T | null> {
  const opened = await blobs.getStream(key)
  if (!opened) return null
  if (opened.head.size > maxBytes) {
    opened.stream.destroy()
    throw new Error(`Blob ${key} is larger than ${maxBytes} bytes`)
  }
  return withTempDir(async (dir) => {
    const file = path.join(dir, 'copy')
    await pipeline(opened.stream, createWriteStream(file, { mode: 0o600 }))
    return use(file, opened.head)
  }, 'lexdesk-blob-copy-')
}

/**
 * The upload sink of routes whose checks read every byte (text extraction, ffmpeg; issue 24: no
 * whole file in memory anywhere): the file part streams into the blob store with putStream, and
 * the checks then read it by path (a worker thread or ffmpeg opens it). The bytes are written
 * once: on the disk store the checks read the stored object's own file (BlobStore.localFile); on
 * a store with no local file (S3) they read a private temporary copy written in the same pass,
 * the one local write (decision 0083). The byte limit is read-multipart's, enforced as the chunks
 * arrive (a 413 stores nothing: putStream keeps nothing of a failing source), and the key and
 * stored type are chosen from the file's first bytes, before anything is written.
 */
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import type { Writable } from 'node:stream'
import { finished } from 'node:stream/promises'
import type { BlobStore } from '../blob/blob-store'
import { makeTempDir } from '../temp-files/temp-root'
import type { FileSink, IncomingFile } from './read-multipart'
import { peekHead, SNIFF_BYTES } from '../media/sniff-content-type'

/** An upload in the store under `key`, readable by the checks at `path`. */
export interface SpooledUpload {
  key: string
  /** Bytes stored. */
  size: number
  /** Its first bytes (at most SNIFF_BYTES), as typed. */
  head: Uint8Array
  contentType: string
  /** The client's file name on one line (read-multipart.ts). */
  fileName: string
  /** The file the checks read: the stored object's own, or a private copy in `copyFolder`. */
  path: string
  /** The private copy's folder (mode 0700), removed by releaseSpool; null without a copy. */
  copyFolder: string | null
}

/** Where an upload starting with `head` goes; may throw the route's refusal (nothing stored). */
export type SpoolTarget = (head: Uint8Array) => Promise<{ key: string; contentType: string }>

/**
 * What spoolSink keeps: the upload, or the target's refusal, held until the whole body has been
 * read, so a body that is wrong in itself (too large, a second file) is refused as on every
 * other upload route. `spooled` turns it into the upload or throws the refusal.
 */
export type SpoolResult = SpooledUpload | { refusal: unknown }

/**
 * A FileSink storing the file under the key `target` chooses from its first bytes, readable by
 * the checks by path. `discard` deletes the stored object and any copy; after readMultipart the
 * caller takes the upload with `spooled` and, once done with its checks, calls releaseSpool.
 */
export function spoolSink(blobs: BlobStore, target: SpoolTarget): FileSink<SpoolResult> {
  return {
    store: (file) => spoolUpload(blobs, file, target),
    async discard(result) {
      if ('refusal' in result) return
      await blobs.delete(result.key)
      await releaseSpool(result)
    },
  }
}

/** The upload of `result`, or the refusal of its target thrown. */
export function spooled(result: SpoolResult): SpooledUpload {
  if ('refusal' in result) throw result.refusal
  return result
}

/** Removes the private copy of `upload`, if it has one (the stored object stays). */
export async function releaseSpool(upload: SpooledUpload): Promise<void> {
  if (upload.copyFolder) await rm(upload.copyFolder, { recursive: true, force: true })
}

async function spoolUpload(
  blobs: BlobStore,
  file: IncomingFile,
  target: SpoolTarget,
): Promise<SpoolResult> {
  const { head, all } = await peekHead(file.chunks, SNIFF_BYTES)
  let chosen: { key: string; contentType: string }
  try {
    chosen = await target(head)
  } catch (refusal) {
    // Read through and dropped: a file past the limit fails here with the 413.
    for await (const chunk of all) void chunk
    return { refusal }
  }
  const stored = { ...chosen, head, fileName: file.fileName }
  const local = blobs.localFile(chosen.key)
  if (local) {
    const size = await blobs.putStream(chosen.key, all, chosen.contentType)
    return { ...stored, size, path: local, copyFolder: null }
  }
  const dir = await makeTempDir('lexdesk-upload-')
  const copyPath = path.join(dir, 'upload')
  const copy = createWriteStream(copyPath, { mode: 0o600 })
  // Its error (a full disk) is reported by `finished` below or the tee's drain wait; without a
  // listener it would be an uncaught 'error' event.
  copy.on('error', () => {})
  try {
    const size = await blobs.putStream(chosen.key, teeTo(all, copy), chosen.contentType)
    copy.end()
    await finished(copy)
    return { ...stored, size, path: copyPath, copyFolder: dir }
  } catch (error) {
    copy.destroy()
    // putStream stored nothing; a failure after it (the copy) must not leave the object.
    await blobs.delete(chosen.key)
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

/** `chunks`, each also written to `copy`, waiting for it to drain so neither side piles up. */
async function* teeTo(
  chunks: AsyncIterable<Uint8Array>,
  copy: Writable,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    // once() rejects on the copy's 'error', so a full disk fails the upload rather than hanging.
    if (!copy.write(chunk)) await once(copy, 'drain')
    yield chunk
  }
}

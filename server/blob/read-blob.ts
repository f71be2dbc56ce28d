/**
 * Reads an object, or a range of it, into memory, for the few readers whose next step needs the
 * bytes at hand (the transcription job hands the audio to its engine; the audio route sniffs a
 * recording's first bytes). Refuses more than `maxBytes` before reading any, so the memory it
 * takes is bounded by the caller.
 */
import type { BlobHead, BlobStore, ByteRange } from './blob-store'

/**
 * The object under `key` (only `range`, inside its size, when given) with its head, or null if
 * there is none. Throws an Error when that is more than `maxBytes`.
 */
export async function readBlob(
  blobs: BlobStore,
  key: string,
  maxBytes: number,
  range?: ByteRange,
): Promise<{ data: Uint8Array; head: BlobHead } | null> {
  const opened = await blobs.getStream(key, range)
  if (!opened) return null
  const size = range ? range.end - range.start + 1 : opened.head.size
  if (size > maxBytes) {
    opened.stream.destroy()
    throw new Error(`Blob ${key} is larger than ${maxBytes} bytes`)
  }
  const chunks: Buffer[] = []
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer)
  return { data: new Uint8Array(Buffer.concat(chunks)), head: opened.head }
}

/**
 * Reads a whole object into memory, for the few readers whose next step needs every byte (the
 * transcription job hands the audio to its engine). Refuses objects past `maxBytes` before
 * reading any of them, so the memory it takes is bounded by the caller.
 */
import type { BlobHead, BlobStore } from './blob-store'

/**
 * The object under `key` with its head, or null if there is none. Throws an Error when it is
 * larger than `maxBytes`.
 */
export async function readBlob(
  blobs: BlobStore,
  key: string,
  maxBytes: number,
): Promise<{ data: Uint8Array; head: BlobHead } | null> {
  const opened = await blobs.getStream(key)
  if (!opened) return null
  if (opened.head.size > maxBytes) {
    opened.stream.destroy()
    throw new Error(`Blob ${key} is larger than ${maxBytes} bytes`)
  }
  const chunks: Buffer[] = []
  for await (const chunk of opened.stream) chunks.push(chunk as Buffer)
  return { data: new Uint8Array(Buffer.concat(chunks)), head: opened.head }
}

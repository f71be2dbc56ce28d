/**
 * The media type of a stored object, told from its first bytes (decision 34: the client's
 * claimed type is never trusted): a magic number file-type knows, else UTF-8 text without NUL
 * as `text/plain; charset=utf-8`, else `application/octet-stream`. Whatever the type, objects
 * are served as attachments with nosniff and a sandbox CSP (media/file-download.ts).
 */
import { fileTypeFromBuffer } from 'file-type'

/** Bytes read before the type is decided: file-type's own sample size. */
export const SNIFF_BYTES = 4100

/** The type of an object starting with `head` (up to SNIFF_BYTES of it). */
export async function sniffContentType(head: Uint8Array): Promise<string> {
  const known = await fileTypeFromBuffer(head)
  if (known) return known.mime
  if (head.length > 0 && !head.includes(0) && isUtf8Prefix(head)) return 'text/plain; charset=utf-8'
  return 'application/octet-stream'
}

/** Whether `bytes` is UTF-8, allowing one multi-byte character cut off at the end. */
function isUtf8Prefix(bytes: Uint8Array): boolean {
  for (let cut = 0; cut < 4 && cut < bytes.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, bytes.length - cut))
      return true
    } catch {
      // A character may straddle the sample's end: try without its last bytes.
    }
  }
  return false
}

/**
 * Splits `chunks` into its first `size` bytes (fewer when the source is shorter) and an
 * iterable of the whole source again (those bytes first), read once, so a stream can be typed
 * before it is stored without holding more than `size` bytes.
 */
export async function peekHead(
  chunks: AsyncIterable<Uint8Array>,
  size: number = SNIFF_BYTES,
): Promise<{ head: Uint8Array; all: AsyncIterable<Uint8Array> }> {
  const iterator = chunks[Symbol.asyncIterator]()
  const taken: Uint8Array[] = []
  let length = 0
  let done = false
  while (length < size) {
    const next = await iterator.next()
    if (next.done) {
      done = true
      break
    }
    taken.push(next.value)
    length += next.value.length
  }
  const head = new Uint8Array(Buffer.concat(taken).subarray(0, size))
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* taken
    if (done) return
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield next.value
  }
  return { head, all: all() }
}

/**
 * A stream that decodes UTF-8 bytes to text and refuses invalid UTF-8 by the line it is on, for
 * the entities import. Node's own decoding (Readable.setEncoding) puts U+FFFD in place of a bad
 * byte, and the import stored it silently (issue 29).
 */
import { Transform } from 'node:stream'

/** Bytes that are not UTF-8, on `line` (1 = the first line of the file). */
export class InvalidUtf8Error extends Error {
  constructor(readonly line: number) {
    super('The file is not valid UTF-8 here: save it as UTF-8 and import it again.')
  }
}

/** Physical line breaks as the CSV reader counts them: CRLF, CR or LF. */
const LINE_BREAK = /\r\n|\r|\n/g

/** How many of `bytes`' leading bytes decode as UTF-8, a sequence cut at the end allowed. */
function validPrefix(bytes: Uint8Array): number {
  let low = 0
  let high = bytes.length
  // Decoding a prefix fails exactly when it holds the bad byte (a cut sequence at its end is
  // kept back by `stream`), so the first bad byte is found by bisection.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true })
      low = middle
    } catch {
      high = middle - 1
    }
  }
  return low
}

/**
 * A Transform from bytes to UTF-8 text (a character split between chunks stays whole) that fails
 * with InvalidUtf8Error naming the line of the first invalid byte. `onBytes` hears of each
 * chunk's size in bytes.
 */
export function strictUtf8(onBytes?: (bytes: number) => void): Transform {
  // ignoreBOM keeps a byte order mark in the text (the header reader drops it), so the text
  // re-encodes to exactly the bytes it came from.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  let line = 1
  let endsInCr = false
  let carry: Uint8Array = new Uint8Array(0)
  const count = (text: string) => {
    // A CRLF split between two chunks is one break: its LF was counted with the CR.
    const counted = endsInCr && text.startsWith('\n') ? text.slice(1) : text
    line += counted.match(LINE_BREAK)?.length ?? 0
    if (text.length > 0) endsInCr = text.endsWith('\r')
  }
  const fail = (bytes: Uint8Array) => {
    count(
      new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, validPrefix(bytes))),
    )
    return new InvalidUtf8Error(line)
  }
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      onBytes?.(chunk.length)
      // The bytes not yet decoded: a character cut at the previous chunk's end, then this chunk.
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk
      let text: string
      try {
        text = decoder.decode(chunk, { stream: true })
      } catch {
        done(fail(bytes))
        return
      }
      carry = bytes.subarray(Buffer.byteLength(text))
      count(text)
      if (text) this.push(text)
      done()
    },
    flush(done) {
      try {
        const text = decoder.decode()
        if (text) this.push(text)
        done()
      } catch {
        done(fail(carry))
      }
    },
  })
}

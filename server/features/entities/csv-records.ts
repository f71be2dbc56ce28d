/**
 * The records of a CSV file read as a stream, each with the physical line it starts on, for the
 * entities import. papaparse parses in step mode, because its Node duplex-stream mode drops the
 * errors it finds (an unclosed quote would silently swallow the rest of the file into one value).
 * The bytes are decoded as UTF-8 before papaparse (strictUtf8), so a character whose bytes
 * straddle two read chunks stays whole (papaparse would decode each chunk alone) and bytes that
 * are not UTF-8 fail the file by their line instead of becoming U+FFFD.
 */
import type { Readable } from 'node:stream'
import Papa from 'papaparse'
import { InvalidUtf8Error, strictUtf8 } from './strict-utf8'

/** One CSV record: its values, and the file line it starts on (1 = the first line). */
export interface CsvRecord {
  cells: string[]
  line: number
}

/**
 * A record papaparse could not read as CSV (a quote not closed, or text after a closing one), or
 * bytes that are not UTF-8.
 */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Records parsed ahead of the consumer before papaparse (and the file stream) is paused, and the
 * few left when it resumes. The gap matters: each pause copies the rest of papaparse's current
 * chunk, so pausing and resuming around one record (an object-mode stream's own backpressure
 * does that) paused 4,000 times for 5,000 records where this pauses 5 times.
 */
const HIGH_WATER = 1000
const LOW_WATER = 100

const QUOTE_MESSAGES: Record<string, string> = {
  MissingQuotes: 'A quoted value is not closed: a " is missing.',
  InvalidQuotes: 'A quoted value has text after its closing ".',
}

/**
 * Yields the records of the CSV `stream` (UTF-8, delimiter detected as papaparse does) in order,
 * skipping blank lines but counting them, so `line` is the record's first physical line even
 * after blank lines or values spanning lines. `onBytes` hears of each decoded chunk's size in
 * bytes (for progress). Throws CsvSyntaxError for badly quoted records, and the stream's own
 * error if reading fails. The consumer's pace paces the file: parsing pauses when it is ahead.
 * Invalid UTF-8 is a CsvSyntaxError too, thrown once the records before it have been yielded.
 */
export async function* csvRecords(
  stream: Readable,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<CsvRecord> {
  const text = stream.pipe(strictUtf8(onBytes))
  // A read error of the file reaches papaparse through the decoder, which pipe() does not do.
  stream.once('error', (error) => text.destroy(error))
  const parsed: Papa.ParseStepResult<string[]>[] = []
  let parser: Papa.Parser | undefined
  let paused = false
  let finished = false
  let failure: unknown
  let wake: (() => void) | undefined
  const notify = () => {
    wake?.()
    wake = undefined
  }
  Papa.parse<string[]>(text as unknown as Papa.LocalFile, {
    step: (result, handle) => {
      parsed.push(result)
      parser = handle
      if (parsed.length >= HIGH_WATER && !paused) {
        paused = true
        handle.pause()
      }
      notify()
    },
    complete: () => {
      finished = true
      notify()
    },
    error: (error: Error) => {
      failure =
        error instanceof InvalidUtf8Error ? new CsvSyntaxError(error.line, error.message) : error
      notify()
    },
  })
  let line = 1
  for (;;) {
    const result = parsed.shift()
    if (!result) {
      if (failure) throw failure
      if (finished) return
      await new Promise<void>((resolve) => (wake = resolve))
      continue
    }
    if (paused && parsed.length <= LOW_WATER) {
      paused = false
      parser?.resume()
    }
    const cells = result.data
    const recordLine = line
    line += cells.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0) + 1
    const quoteError = result.errors.find((e) => e.type === 'Quotes')
    if (quoteError)
      throw new CsvSyntaxError(recordLine, QUOTE_MESSAGES[quoteError.code] ?? quoteError.message)
    if (cells.length === 1 && cells[0] === '') continue // a blank line
    yield { cells, line: recordLine }
  }
}

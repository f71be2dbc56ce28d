/**
 * The importer's NDJSON reader (decision 0103): lines split across inflated chunks come back
 * whole and numbered, `\r\n` and blank lines are handled as readline did, and a line past the
 * bound is refused with 413 `archive_line_too_long` naming its entry and line, with no row of it
 * read beyond the bound.
 */
import { describe, expect, it } from 'vitest'
import { zipSync } from 'fflate'
import yauzl from 'yauzl'
import { entryLines } from './import-archive'

/** The lines `entryLines` reads from an entry holding `text`, at most `max` bytes a line. */
async function linesOf(text: string, max: number) {
  const zip = await yauzl.fromBufferPromise(
    Buffer.from(zipSync({ 'tables/t.ndjson': new TextEncoder().encode(text) })),
    { lazyEntries: true },
  )
  try {
    const out: [number, string, number][] = []
    for await (const entry of zip.eachEntry())
      for await (const line of entryLines(zip, entry, 'tables/t.ndjson', max)) out.push(line)
    return out
  } finally {
    zip.close()
  }
}

describe('entryLines', () => {
  it('gives long lines whole across chunks, numbered, without their \\r, skipping blank ones', async () => {
    const long = 'x'.repeat(200_000)
    const lines = await linesOf(`a\r\n\n${long}\n€\n${long}b`, 200_001)
    expect(lines.map(([n, line, bytes]) => [n, line.length, bytes])).toEqual([
      [1, 1, 1],
      [3, 200_000, 200_000],
      [4, 1, 3],
      [5, 200_001, 200_001],
    ])
    expect(lines[2]![1]).toBe('€')
  })

  it('refuses a line one byte past the bound with 413 archive_line_too_long, naming it', async () => {
    const at = 100_000
    expect(await linesOf(`{}\n${'y'.repeat(at)}\n`, at)).toHaveLength(2)
    await expect(linesOf(`{}\n${'y'.repeat(at + 1)}\n{}\n`, at)).rejects.toMatchObject({
      code: 'archive_line_too_long',
      status: 413,
      message: expect.stringContaining('tables/t.ndjson line 2 is longer than 100000 bytes'),
    })
  })
})

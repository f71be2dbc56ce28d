import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { csvRecords, CsvSyntaxError } from './csv-records'

async function collect(stream: Readable) {
  const records = []
  for await (const record of csvRecords(stream)) records.push(record)
  return records
}

const bytes = (text: string) => Readable.from([Buffer.from(text)])

describe('csvRecords', () => {
  it('gives each record the physical line it starts on, across blank lines and multi-line values', async () => {
    const expected = (newline: string) => [
      { cells: ['name', 'type'], line: 1 },
      { cells: [`two${newline}lines`, 'x'], line: 3 },
      { cells: ['last', 'y'], line: 6 },
    ]
    for (const newline of ['\n', '\r\n']) {
      const file = ['name,type', '', `"two${newline}lines",x`, '', 'last,y', ''].join(newline)
      expect(await collect(bytes(file))).toEqual(expected(newline))
    }
  })

  it('keeps a character whose bytes are split between two chunks whole', async () => {
    const encoded = Buffer.from('name\n€uro\n')
    // '€' is three bytes (5..7): cut after its first byte.
    const records = await collect(Readable.from([encoded.subarray(0, 6), encoded.subarray(6)]))
    expect(records.map((r) => r.cells)).toEqual([['name'], ['€uro']])
  })

  it('reports an unclosed quote on the line of its record instead of swallowing the file', async () => {
    const error = await collect(bytes('name\nAcme\n"Beta\nGamma\nDelta\n')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CsvSyntaxError)
    expect(error).toMatchObject({
      line: 3,
      message: 'A quoted value is not closed: a " is missing.',
    })
  })

  it('reports text after a closing quote', async () => {
    const error = await collect(bytes('name,type\n"Acme"x,lead\n')).catch((e: unknown) => e)
    expect(error).toMatchObject({
      line: 2,
      message: 'A quoted value has text after its closing ".',
    })
  })

  it('delivers every record in order to a consumer slower than the parser (pausing the file)', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `row ${i}`)
    const chunks = []
    for (let i = 0; i < lines.length; i += 250)
      chunks.push(`${lines.slice(i, i + 250).join('\n')}\n`)
    const seen: string[] = []
    for await (const { cells, line } of csvRecords(Readable.from(chunks))) {
      seen.push(cells[0] ?? '')
      expect(line).toBe(seen.length)
      if (seen.length % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(seen).toEqual(lines)
  })
})

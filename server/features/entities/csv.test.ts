import Papa from 'papaparse'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvLine } from '../../http/csv-line'
import { CSV_COLUMNS, parseDataCell, readHeader, readRecord } from './csv'

describe('CSV records', () => {
  it('parses data as a JSON object, wraps anything else as raw text, and maps empty to {}', () => {
    expect(parseDataCell('{"a":1}')).toEqual({ a: 1 })
    expect(parseDataCell('[1]')).toEqual({ _raw: '[1]' })
    expect(parseDataCell('not json')).toEqual({ _raw: 'not json' })
    expect(parseDataCell(null)).toEqual({})
  })

  it('refuses unknown and repeated header columns and a header without name', () => {
    expect(readHeader(['\uFEFFName', 'TYPE'])).toEqual(['name', 'type'])
    expect(() => readHeader(['name', 'colour'])).toThrow(/Unknown column "colour"/)
    expect(() => readHeader(['name', 'name'])).toThrow(/twice/)
    expect(() => readHeader(['type'])).toThrow(/no name column/)
  })

  it('reads a record with empty values as null and checks created_at', () => {
    const columns = readHeader([...CSV_COLUMNS])
    expect(readRecord(columns, ['', 'x', '', '', 'Acme', '', ''])).toEqual({
      name: 'Acme',
      type: null,
      data: {},
      createdAt: null,
    })
    expect(() => readRecord(columns, ['', '', '', '', 'A', '', 'yesterday'])).toThrow(/ISO 8601/)
    // Dates the pattern allows but the calendar (or PostgreSQL) does not.
    for (const missing of [
      '2024-02-30',
      '2023-02-29',
      '2024-04-31T10:00:00Z',
      '2024-13-01',
      '0000-01-01',
      '2024-01-01T25:00:00Z',
      '2024-01-01T10:00:00+16:00',
      '2024-01-01-1600',
    ])
      expect(() => readRecord(columns, ['', '', '', '', 'A', '', missing]), missing).toThrow(
        /ISO 8601 date that exists/,
      )
    for (const real of ['2024-02-29', '2024-12-31T23:59:59.999999Z', '2024-06-01 10:00-05:30'])
      expect(readRecord(columns, ['', '', '', '', 'A', '', real]).createdAt).toBe(real)
    expect(() => readRecord(columns, ['', '', '', '', '', '', ''])).toThrow(/name is empty/)
    expect(() => readRecord(columns, ['a'])).toThrow(/1 values; the header has 7/)
  })

  it('round-trips any record through csvLine and papaparse', () => {
    const cell = fc.string({
      unit: fc.oneof(
        fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '"', "'", ',', ';'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
      minLength: 1,
    })
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 5 }), (rows) => {
        const text = csvLine(['name', 'type']) + rows.map((r) => csvLine(r)).join('')
        const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true }).data
        const columns = readHeader(parsed[0] ?? [])
        const back = parsed.slice(1).map((cells) => readRecord(columns, cells))
        expect(back.map((e) => [e.name, e.type])).toEqual(rows)
      }),
      { numRuns: 300 },
    )
  })
})

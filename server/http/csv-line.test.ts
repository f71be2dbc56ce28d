import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvCell, csvLine, neutraliseFormula, restoreFormula } from './csv-line'

describe('CSV quoting', () => {
  it('quotes every value, doubles inner quotes and writes objects as JSON', () => {
    expect(csvCell('plain')).toBe('"plain"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('a,b\nc')).toBe('"a,b\nc"')
    expect(csvCell(null)).toBe('""')
    expect(csvCell({ q: 'x"y', n: [1, 2] })).toBe('"{""q"":""x\\""y"",""n"":[1,2]}"')
    expect(csvLine(['a', 1, null])).toBe('"a","1",""\r\n')
  })

  it('neutralises cells a spreadsheet would run as formulas (OWASP) and quote-led cells', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r', "'"])
      expect(neutraliseFormula(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`)
    expect(neutraliseFormula('SUM(A1)')).toBe('SUM(A1)')
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
  })

  it('restores exactly what neutralisation changed, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(restoreFormula(neutraliseFormula(text))).toBe(text)
      }),
    )
    // Hand-typed cells that merely look neutralised lose their quote only when it guards a formula.
    expect(restoreFormula("'=1")).toBe('=1')
    expect(restoreFormula("'abc")).toBe("'abc")
  })
})

import { describe, expect, it } from 'vitest'
import { parseByteRange } from './byte-range'
import { AppError } from '../errors/app-error'

describe('byte ranges', () => {
  it('reads a closed, an open and a suffix range, clipping the end to the last byte', () => {
    expect(parseByteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 })
    expect(parseByteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 })
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 })
    expect(parseByteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 })
    expect(parseByteRange('bytes=50-5000', 100)).toEqual({ start: 50, end: 99 })
  })

  it('ignores what a server may ignore: no header, other units, several ranges, nonsense', () => {
    for (const header of [undefined, '', 'items=0-1', 'bytes=0-1,5-6', 'bytes=-', 'bytes=9-2'])
      expect(parseByteRange(header, 100)).toBeNull()
  })

  it('refuses a range with no byte in the file as 416 naming the size', () => {
    for (const header of ['bytes=100-', 'bytes=500-600', 'bytes=-0']) {
      let thrown: unknown
      try {
        parseByteRange(header, 100)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(AppError)
      expect((thrown as AppError).code).toBe('range_not_satisfiable')
      expect((thrown as AppError).headers).toEqual({ 'content-range': 'bytes */100' })
    }
    expect(() => parseByteRange('bytes=0-', 0)).toThrow(AppError)
  })
})

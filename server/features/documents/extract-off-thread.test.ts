import { describe, expect, it } from 'vitest'
import { AppError } from '../../http/app-error'
import { makePdf, SAMPLE_CONTRACT } from '../../test/sample-files'
import { extractDocumentText } from './extract-text'
import { extractTextOffThread } from './extract-off-thread'

describe('extractTextOffThread', () => {
  it('extracts the same text as on the main thread while the event loop keeps turning', async () => {
    const pdf = await makePdf(Array.from({ length: 40 }, () => SAMPLE_CONTRACT).join('\n'))
    let ticks = 0
    let spinning = true
    const spin = () => {
      ticks += 1
      if (spinning) setImmediate(spin)
    }
    setImmediate(spin)
    const offThread = await extractTextOffThread(pdf, 'long.pdf')
    spinning = false
    expect(ticks).toBeGreaterThan(20)
    expect(offThread).toEqual(await extractDocumentText(pdf, 'long.pdf'))
    expect(offThread.pages).toBeGreaterThan(20)
  })

  it('passes the extractor problems through as AppErrors', async () => {
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    ])
    const error = await extractTextOffThread(png, 'photo.pdf').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ status: 415, code: 'unsupported_type' })
  })
})

import { describe, expect, it } from 'vitest'
import { makeZipBombDocx } from '../../test/bomb-files'
import { makeDocx, SAMPLE_CONTRACT } from '../../test/sample-files'
import { checkZipExpansion, DOCX_EXPANSION_LIMITS } from './check-zip-expansion'

const MIB = 1024 * 1024
/** Only the total counts: no ratio rule. */
const totalOnly = { maxTotalBytes: MIB, maxRatio: Number.MAX_SAFE_INTEGER, ratioGraceBytes: 0 }

describe('checkZipExpansion', () => {
  it('refuses an archive whose declared sizes add up past the total', async () => {
    await expect(checkZipExpansion(makeZipBombDocx(2), totalOnly)).rejects.toMatchObject({
      code: 'unpacked_too_large',
      status: 413,
    })
  })

  it('refuses an archive that declares little but inflates past the total', async () => {
    await expect(
      checkZipExpansion(makeZipBombDocx(2, { lie: true }), totalOnly),
    ).rejects.toMatchObject({ code: 'unpacked_too_large', status: 413 })
  })

  it('refuses an entry that expands past the ratio once over the grace bytes', async () => {
    await expect(
      checkZipExpansion(makeZipBombDocx(2, { lie: true }), DOCX_EXPANSION_LIMITS),
    ).rejects.toMatchObject({ code: 'unpacked_too_large' })
  })

  it('passes an ordinary DOCX', async () => {
    await expect(
      checkZipExpansion(await makeDocx(SAMPLE_CONTRACT), DOCX_EXPANSION_LIMITS),
    ).resolves.toBeUndefined()
  })

  it('answers 400 corrupt_file for an archive cut short', async () => {
    const docx = await makeDocx(SAMPLE_CONTRACT)
    await expect(
      checkZipExpansion(docx.subarray(0, docx.length - 30), DOCX_EXPANSION_LIMITS),
    ).rejects.toMatchObject({ code: 'corrupt_file', status: 400 })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { makeZipBombDocx } from '../../test/bomb-files'
import { makeDocx, SAMPLE_CONTRACT } from '../../test/sample-files'
import { storedDocuments, uploadDocument } from '../../test/document-uploads'
import { MAX_DOCUMENT_CHARACTERS } from './extract-text'

let t: TestApp
let alice: TestMember

beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Bomb Squad Firm')
})
afterAll(() => t.close())

const upload = (bytes: Uint8Array, fileName: string) => uploadDocument(t, alice, bytes, fileName)

const stored = () => storedDocuments(t)

describe('decompression bombs among uploads', () => {
  it('refuses a DOCX whose ZIP headers declare a huge document with a 413, storing nothing', async () => {
    const before = await stored()
    const res = await upload(makeZipBombDocx(64), 'honest-bomb.docx')
    expect(res.statusCode).toBe(413)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'unpacked_too_large' })
    expect(res.json().detail).toMatch(/unpacks|expands/)
    expect(await stored()).toEqual(before)
  })

  it('refuses a DOCX whose headers lie about its size, counting what it inflates to', async () => {
    const before = await stored()
    const res = await upload(makeZipBombDocx(64, { lie: true }), 'lying-bomb.docx')
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'unpacked_too_large' })
    expect(await stored()).toEqual(before)
  })

  it('still reads an ordinary DOCX', async () => {
    const res = await upload(await makeDocx(SAMPLE_CONTRACT), 'contract.docx')
    expect(res.statusCode).toBe(201)
    expect(res.json().content).toContain('MASTER SERVICES AGREEMENT')
  })

  it('refuses a file whose text is longer than a document may be with a 413, storing nothing', async () => {
    const before = await stored()
    const text = Buffer.alloc(MAX_DOCUMENT_CHARACTERS + 1, 'word ')
    const res = await upload(text, 'endless.txt')
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ code: 'text_too_long' })
    expect(res.json().detail).toContain(MAX_DOCUMENT_CHARACTERS.toLocaleString('en-US'))
    expect(await stored()).toEqual(before)
  })
})

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spokenWav } from '../../test/test-audio'
import { decodeToPcm, pcmToWav, PCM_BYTES_PER_SECOND } from './audio'
import { featParamsForPiece, meanCepstrum, withCmnInit } from './cepstral-mean'
import { POCKETSPHINX_MODEL } from './local-transcriber'
import { WorkerPool } from '../../workers/worker-pool'

describe('meanCepstrum', () => {
  it('averages each of the 13 coefficients over the frames, skipping other lines', () => {
    const frame = (v: number) => Array.from({ length: 13 }, (_, i) => v + i).join(' ')
    expect(meanCepstrum(`${frame(1)}\n${frame(3)}\nINFO: not a frame\n1 2 3\n`)).toEqual(
      Array.from({ length: 13 }, (_, i) => 2 + i),
    )
  })

  it('has no mean without frames', () => {
    expect(meanCepstrum('')).toBeUndefined()
  })
})

describe('withCmnInit', () => {
  it('replaces the -cmninit line and keeps the other parameters', () => {
    const params = '-lowerf 130\n-cmn batch\n-cmninit 41.00,-5.29\n-agc none\n'
    expect(withCmnInit(params, [60.123, -1.5])).toBe(
      '-lowerf 130\n-cmn batch\n-agc none\n-cmninit 60.12,-1.50\n',
    )
  })
})

describe('featParamsForPiece', () => {
  let dir: string
  const pool = new WorkerPool({ threads: 1 })
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lexdesk-cmn-test-'))
  })
  afterAll(async () => {
    await pool.close()
    await rm(dir, { recursive: true, force: true })
  })
  const install = 'install sphinxbase-utils'

  it("writes the model's parameters with the piece's own mean as -cmninit", async () => {
    const wav = path.join(dir, 'speech.wav')
    await writeFile(
      wav,
      pcmToWav(await decodeToPcm(await spokenWav('Sign the lease today.'), { pool })),
    )
    const file = await featParamsForPiece(POCKETSPHINX_MODEL, wav, { install, pool })
    const written = await readFile(file ?? '', 'utf8')
    const model = await readFile(path.join(POCKETSPHINX_MODEL, 'feat.params'), 'utf8')
    const cmninit = (text: string) => /^-cmninit (.*)$/m.exec(text)?.[1]
    expect(cmninit(written)?.split(',')).toHaveLength(13)
    expect(cmninit(written)).not.toBe(cmninit(model))
    expect(written.replace(/^-cmninit.*\n/m, '')).toBe(model.replace(/^-cmninit.*\n/m, ''))
  })

  it('keeps the model default for a piece without speech', async () => {
    const wav = path.join(dir, 'silence.wav')
    await writeFile(wav, pcmToWav(Buffer.alloc(2 * PCM_BYTES_PER_SECOND)))
    expect(await featParamsForPiece(POCKETSPHINX_MODEL, wav, { install, pool })).toBeUndefined()
  })
})

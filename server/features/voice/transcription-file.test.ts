import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, type TestApp, type TestMember } from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { consentedMember, scriptedTranscriber, uploadRecording } from '../../test/voice-member'
import { pcmToWav, PCM_BYTES_PER_SECOND } from '../../ai/speech/audio'
import type { AudioFile } from '../../ai/speech/types'
import * as readBlobModule from '../../blob/read-blob'

vi.mock('../../blob/read-blob', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../blob/read-blob')>()
  return { ...actual, readBlob: vi.fn(actual.readBlob) }
})

/** What the engine was handed, and the bytes of its file while the engine ran. */
const handed: { audio: unknown; bytes: Uint8Array | null; mime: string }[] = []

/** An engine that keeps what it is given: the hand-over, not recognition, is tested. */
const keepingTranscriber = scriptedTranscriber(
  [{ start: 0, end: 1, text: 'Call the landlord.' }],
  'keeping',
  async (audio, mime) => {
    const path = (audio as { path?: unknown }).path
    const bytes = typeof path === 'string' ? new Uint8Array(await readFile(path)) : null
    handed.push({ audio, bytes, mime })
  },
)

let t: TestApp
let alice: TestMember

beforeAll(async () => {
  t = await buildTestApp({ engines: { transcriber: keepingTranscriber } })
  alice = await consentedMember(t)
})
afterAll(() => t.close())

describe('the transcription job', () => {
  it('hands the engine a private copy of the stored recording by path, never the recording read whole, and removes the copy', async () => {
    const wav = new Uint8Array(pcmToWav(Buffer.alloc(PCM_BYTES_PER_SECOND, 7)))
    const res = await uploadRecording(t, alice, wav)
    expect(res.statusCode).toBe(202)
    const { job } = res.json() as { job: { id: string } }
    const done = await finishedJob(t, alice, job.id)
    expect(done.status).toBe('succeeded')

    expect(handed).toHaveLength(1)
    const [{ audio, bytes, mime }] = handed as [(typeof handed)[number]]
    expect(audio).toEqual({ path: expect.any(String) })
    expect(bytes).toEqual(wav)
    expect(mime).toBe('audio/wav')
    expect(existsSync((audio as AudioFile).path)).toBe(false)
    expect(readBlobModule.readBlob).not.toHaveBeenCalled()
  })
})

import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { WorkerPool } from '../../workers/worker-pool'
import * as audio from './audio'
import { LocalTranscriber } from './local-transcriber'
import { useTempRoot } from '../../temp-files/temp-root'
import { withAudioFile } from './with-audio-file'

const reads: number[] = []
vi.mock('./audio', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./audio')>()
  // Counts the bytes of every range the transcriber reads from the decoded PCM.
  const counted: typeof actual.withDecodedPcm = (input, options, use) =>
    actual.withDecodedPcm(input, options, (pcm, dir) =>
      use(
        {
          byteLength: pcm.byteLength,
          read: (from, to) => {
            reads.push(Math.min(to, pcm.byteLength) - from)
            return pcm.read(from, to)
          },
        },
        dir,
      ),
    )
  return {
    ...actual,
    decodeToPcm: vi.fn(actual.decodeToPcm),
    withDecodedPcm: vi.fn(counted),
  }
})

const pool = new WorkerPool({ threads: 2 })
let root: string
beforeAll(async () => {
  root = path.join(await mkdtemp(path.join(tmpdir(), 'lexdesk-transcriber-')), 'tmp')
  await useTempRoot(root, 0)
})
afterAll(async () => {
  await pool.close()
  await rm(path.dirname(root), { recursive: true, force: true })
})

describe('LocalTranscriber memory', () => {
  it('reads the decoded recording piece by piece from its file, never whole, and leaves no folder', async () => {
    const { PCM_BYTES_PER_SECOND, pcmToWav } = audio
    const seconds = 35
    const transcript = await withAudioFile(
      pcmToWav(Buffer.alloc(seconds * PCM_BYTES_PER_SECOND)),
      (file) =>
        new LocalTranscriber(pool, { pieceSec: 10 }).transcribe(file, 'audio/wav', {
          maxSeconds: 30,
        }),
    )
    // The maxSeconds cut holds: 30 s of the 35 are worked through.
    expect(transcript.durationSec).toBe(30)
    expect(audio.decodeToPcm).not.toHaveBeenCalled()
    expect(reads.length).toBeGreaterThanOrEqual(3)
    expect(Math.max(...reads)).toBeLessThanOrEqual(10 * PCM_BYTES_PER_SECOND)
    expect(await readdir(root)).toEqual([])
  })
})

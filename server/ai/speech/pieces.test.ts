import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PCM_BYTES_PER_SECOND } from './audio'
import { openPcmFile, type PcmSource } from './pcm-file'
import { splitPcm } from './pieces'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lexdesk-pieces-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** PCM held in memory, read by range like a file. */
function inMemory(pcm: Buffer): PcmSource {
  return { byteLength: pcm.byteLength, read: async (from, to) => pcm.subarray(from, to) }
}

/** `seconds` of a loud tone (amplitude 8000, with some variation) silenced over `[from, to)` seconds. */
function toneWithGaps(seconds: number, gaps: [number, number][]): Buffer {
  const pcm = Buffer.alloc(seconds * PCM_BYTES_PER_SECOND)
  for (let i = 0; i < pcm.byteLength; i += 2) pcm.writeInt16LE(8000 - ((i * 7) % 3000), i)
  for (const [from, to] of gaps) pcm.fill(0, from * PCM_BYTES_PER_SECOND, to * PCM_BYTES_PER_SECOND)
  return pcm
}

describe('splitPcm', () => {
  it('cuts long audio at the quietest frame near each piece end', async () => {
    const pcm = toneWithGaps(25, [[8.5, 8.55]])
    // Silence from 8.5 s to 8.55 s: the cut of the first 10 s piece must land there.
    const quietAt = 8.5 * PCM_BYTES_PER_SECOND
    const pieces = await splitPcm(inMemory(pcm), 10, 3)
    expect(pieces[0]).toEqual({ startByte: 0, endByte: quietAt, startSec: 0 })
    expect(pieces[1]?.startSec).toBe(8.5)
    expect(pieces[1]?.startByte).toBe(quietAt)
    expect(pieces.at(-1)?.endByte).toBe(pcm.byteLength)
    for (const piece of pieces)
      expect(piece.endByte - piece.startByte).toBeLessThanOrEqual(10 * PCM_BYTES_PER_SECOND)
  })

  it('cuts PCM read from a file by byte range where it cuts the same PCM in memory', async () => {
    const gaps: [number, number][] = [
      [55.2, 55.3],
      [110, 110.05],
      [165.5, 166],
      [220.1, 220.2],
    ]
    const pcm = toneWithGaps(250, gaps)
    const file = path.join(dir, 'gaps.pcm')
    await writeFile(file, pcm)
    const expected = await splitPcm(inMemory(pcm))
    // Each cut falls at the start of a gap (frame-aligned), the last piece ends the audio.
    expect(expected.map((p) => p.startSec)).toEqual([0, 55.2, 110, 165.5, 220.1])
    expect(expected.at(-1)?.endByte).toBe(pcm.byteLength)
    const reads: number[] = []
    const pcmFile = await openPcmFile(file)
    try {
      const counted: PcmSource = {
        byteLength: pcmFile.byteLength,
        read: (from, to) => {
          reads.push(to - from)
          return pcmFile.read(from, to)
        },
      }
      expect(await splitPcm(counted)).toEqual(expected)
    } finally {
      await pcmFile.close()
    }
    // Only the search windows were read, never the whole.
    expect(Math.max(...reads)).toBeLessThanOrEqual(8 * PCM_BYTES_PER_SECOND)
  })

  it('reads at most the PCM it was limited to, and ranges clipped to it', async () => {
    const file = path.join(dir, 'limited.pcm')
    await writeFile(file, toneWithGaps(3, []))
    const pcmFile = await openPcmFile(file, 2 * PCM_BYTES_PER_SECOND)
    try {
      expect(pcmFile.byteLength).toBe(2 * PCM_BYTES_PER_SECOND)
      const tail = await pcmFile.read(PCM_BYTES_PER_SECOND, 3 * PCM_BYTES_PER_SECOND)
      expect(tail.byteLength).toBe(PCM_BYTES_PER_SECOND)
      expect(tail.readInt16LE(0)).toBe(8000 - ((PCM_BYTES_PER_SECOND * 7) % 3000))
      expect(await splitPcm(pcmFile, 60)).toEqual([
        { startByte: 0, endByte: 2 * PCM_BYTES_PER_SECOND, startSec: 0 },
      ])
    } finally {
      await pcmFile.close()
    }
  })
})

import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTempRoot, withTempDir } from './temp-root'

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-temp-root-'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

/** A folder like the one a killed transcription leaves, last changed `ageMs` ago. */
async function leftover(root: string, name: string, ageMs: number) {
  const dir = path.join(root, name)
  await mkdir(dir, { recursive: true })
  await writeFile(path.join(dir, 'piece-0.wav'), Buffer.alloc(1024))
  const at = new Date(Date.now() - ageMs)
  await utimes(dir, at, at)
}

describe('useTempRoot', () => {
  it('removes every leftover when no other process shares the data dir, and works under the root', async () => {
    const root = path.join(dataDir, 'single', 'tmp')
    await leftover(root, 'lexdesk-audio-killed', 0)
    expect(await useTempRoot(root, 0)).toBe(1)
    expect(await readdir(root)).toEqual([])
    const seen = await withTempDir(async (dir) => {
      expect(path.dirname(dir)).toBe(root)
      return readdir(root)
    })
    expect(seen).toHaveLength(1)
    expect(await readdir(root)).toEqual([])
  })

  it("keeps a shared data dir's recent folders, which another server may be working in", async () => {
    const root = path.join(dataDir, 'shared', 'tmp')
    await leftover(root, 'lexdesk-audio-old', 60 * 60_000)
    await leftover(root, 'lexdesk-audio-busy', 0)
    expect(await useTempRoot(root, 15 * 60_000)).toBe(1)
    expect(await readdir(root)).toEqual(['lexdesk-audio-busy'])
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createFsBlobStore } from './fs-blob-store'
import { CLEAN_STOP_KEY, noteFilesLeftBehind, recordCleanStop } from './orphan-walk'

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

async function store() {
  const dir = await mkdtemp(join(tmpdir(), 'orphan-walk-'))
  dirs.push(dir)
  return createFsBlobStore(dir)
}

describe('the clean-stop marker', () => {
  it('is left by a clean stop, and not once a file of a deleted row was left behind', async () => {
    const outcome = { walked: true, lastWalkAt: new Date() }
    const clean = await store()
    await recordCleanStop(clean, outcome)
    expect(await clean.head(CLEAN_STOP_KEY)).not.toBeNull()
    // A removal failed (retention-job.ts): the next start must walk, so no marker.
    noteFilesLeftBehind()
    const after = await store()
    await recordCleanStop(after, outcome)
    expect(await after.head(CLEAN_STOP_KEY)).toBeNull()
  })
})

/**
 * Where every piece of work keeps its temporary folders (an MP4 being decoded, the WAV pieces of
 * a transcription, an upload's private copy, a stored file's copy for extraction, OCR's page
 * images). The server gives each data dir its own root (`<dataDir>/tmp`, see main.ts)
 * and sweeps it at start: a process killed mid-transcription leaves its folder behind (6.5 MB in
 * the review of issue 29), and nothing else would ever remove it. Tests and benchmarks, which
 * set no root, use the OS temporary directory.
 */
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

let root: string | undefined

/** Folder name prefix of one piece of audio work. */
const PREFIX = 'lexdesk-audio-'

/**
 * Makes `dir` the root of later temporary folders, creating it, and removes what interrupted
 * work left in it: every entry last changed more than `graceMs` ago (0 when no other process can
 * share the data dir, as with PGlite; a server sharing it with others passes a grace so that their
 * running work is kept). Resolves to the number of entries removed.
 */
export async function useTempRoot(dir: string, graceMs: number): Promise<number> {
  await mkdir(dir, { recursive: true })
  root = dir
  const cutoff = Date.now() - graceMs
  let removed = 0
  for (const name of await readdir(dir)) {
    const entry = path.join(dir, name)
    const changed = await stat(entry).then(
      (s) => s.mtimeMs,
      () => Infinity,
    )
    if (graceMs > 0 && changed > cutoff) continue
    await rm(entry, { recursive: true, force: true })
    removed += 1
  }
  return removed
}

/**
 * Runs `fn` with a fresh private temporary folder (mode 0700) under the root, removed afterwards
 * whether `fn` succeeds, fails or is aborted; `prefix` names the kind of work (OCR passes its own).
 */
export async function withTempDir<T>(
  fn: (dir: string) => Promise<T>,
  prefix: string = PREFIX,
): Promise<T> {
  const dir = await makeTempDir(prefix)
  try {
    return await fn(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * A fresh private temporary folder (mode 0700) under the root, for work whose folder outlives one
 * call (an upload's copy, kept from the request's body to the end of its checks); the caller
 * removes it (`rm(dir, { recursive: true, force: true })`). `prefix` names the kind of work.
 */
export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(root ?? tmpdir(), prefix))
}

/**
 * When the start-up orphan walk (orphan-files.ts) runs, so a start does not list the whole store
 * each time (issue 24). Files without a row arise only when a process stops between writing a
 * file and its row (every refused write removes its file itself), so a process that stops cleanly
 * leaves a marker (`system/orphan-walk.json`: the time of the last full walk); the next start
 * takes the marker away, and walks only when there was none (a crash, a kill, a first start) or
 * the last walk is older than FULL_WALK_EVERY_MS. The marker is trusted only where one process
 * owns the store (PGlite); with PostgreSQL several processes may share it, and one's clean stop
 * says nothing of another's crash, so the walk runs at every start there, in the background.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { BlobStore } from './blob-store'
import { SYSTEM_PREFIX } from './blob-keys'
import { readBlob } from './read-blob'
import { removeOrphanFiles, type FileOwnership } from './orphan-files'
import type { Db } from '../db/client'

/** The marker a clean stop leaves. */
export const CLEAN_STOP_KEY = `${SYSTEM_PREFIX}orphan-walk.json`

/** A full walk at least this often even after clean stops (a week: a cheap safety net). */
export const FULL_WALK_EVERY_MS = 7 * 24 * 3600_000

/** What a start decided: whether it walked, and when the last full walk was. */
export interface WalkOutcome {
  walked: boolean
  lastWalkAt: Date
}

/**
 * Takes the clean-stop marker away and, unless it was there (and `trustMarker`), recent, walks
 * the store (removeOrphanFiles with `kinds` and `minAgeMs`). Resolves to what was done.
 */
export async function walkUnlessCleanStop(
  deps: { db: Db; blobs: BlobStore },
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  kinds: FileOwnership[],
  options: { minAgeMs: number; trustMarker: boolean; now?: Date },
): Promise<WalkOutcome> {
  const now = options.now ?? new Date()
  const marker = await readBlob(deps.blobs, CLEAN_STOP_KEY, 4096).catch(() => null)
  await deps.blobs.delete(CLEAN_STOP_KEY)
  const walkedAt = marker
    ? new Date(
        (JSON.parse(Buffer.from(marker.data).toString('utf8')) as { walkedAt: string }).walkedAt,
      )
    : null
  const recent = walkedAt !== null && now.getTime() - walkedAt.getTime() < FULL_WALK_EVERY_MS
  if (options.trustMarker && recent) return { walked: false, lastWalkAt: walkedAt }
  await removeOrphanFiles(deps, log, kinds, options.minAgeMs)
  return { walked: true, lastWalkAt: now }
}

/** Whether this process failed to remove a file whose row it deleted (noteFilesLeftBehind). */
let filesLeftBehind = false

/**
 * Says that this process deleted a row and then failed to remove its file (a store error): its
 * clean stop then leaves no marker, so the next start walks and removes the file.
 */
export function noteFilesLeftBehind(): void {
  filesLeftBehind = true
}

/**
 * Leaves the clean-stop marker; call it after the server stopped taking requests and jobs. None
 * when files were left behind (noteFilesLeftBehind): the next start then walks.
 */
export async function recordCleanStop(blobs: BlobStore, outcome: WalkOutcome): Promise<void> {
  if (filesLeftBehind) return
  const body = JSON.stringify({ walkedAt: outcome.lastWalkAt.toISOString() })
  await blobs.putStream(CLEAN_STOP_KEY, [new TextEncoder().encode(body)], 'application/json')
}

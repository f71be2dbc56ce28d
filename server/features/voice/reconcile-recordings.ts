/**
 * Start-up reconciliation of recording files with recording rows (as decision 11 does for
 * documents): an upload writes the file before the row, so a crash between the two leaves a file
 * under `orgs/<org>/voice-recordings/` that no row names; this removes such files.
 */
import { inArray } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { recordings } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import type { VoiceDeps } from './service'

const RECORDING_KEY = /^orgs\/([^/]+)\/voice-recordings\//

/**
 * Removes recording files no row names, except those written less than `minAgeMs` ago (another
 * process may be between its file and its row). Returns how many were removed.
 */
export async function reconcileRecordingFiles(
  deps: VoiceDeps,
  log: Pick<FastifyBaseLogger, 'warn'>,
  minAgeMs: number,
): Promise<number> {
  const cutoff = Date.now() - minAgeMs
  const byOrg = new Map<string, string[]>()
  for await (const blob of deps.blobs.list('orgs/')) {
    const orgId = RECORDING_KEY.exec(blob.key)?.[1]
    if (!orgId || blob.updatedAt.getTime() > cutoff) continue
    byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), blob.key])
  }
  let removed = 0
  for (const [orgId, keys] of byOrg) {
    const named = new Set(
      await withTenant(deps.db, { orgId }, async (tx) =>
        (
          await tx
            .select({ key: recordings.fileKey })
            .from(recordings)
            .where(inArray(recordings.fileKey, keys))
        ).map((r) => r.key),
      ),
    )
    for (const key of keys) {
      if (named.has(key)) continue
      await deps.blobs.delete(key)
      removed += 1
    }
  }
  if (removed > 0)
    log.warn({ removed }, 'removed recording files left without a row by an interrupted upload')
  return removed
}

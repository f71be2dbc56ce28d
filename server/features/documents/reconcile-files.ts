/**
 * Start-up reconciliation of document files with document rows (issue 5, hole 3). Uploads write
 * the file before the row, so a crash between the two leaves a folder `orgs/<org>/documents/<id>/`
 * without a row; this removes such folders and logs what it removed. Rows never lack their file.
 */
import { inArray } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { documents } from '../../db/schema'
import { withTenant } from '../../db/tenant'
import type { DocumentDeps } from './service'
import { documentFolder } from './service'

const DOCUMENT_KEY = /^orgs\/([^/]+)\/documents\/([^/]+)\//
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Removes document folders that have no row. Folders written less than `minAgeMs` ago are kept:
 * with PostgreSQL another server process may be between writing a file and its row (PGlite
 * allows one process, so 0 is safe there). Returns the number of folders removed.
 */
export async function reconcileDocumentFiles(
  deps: DocumentDeps,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  minAgeMs: number,
): Promise<number> {
  const newest = new Map<string, { orgId: string; documentId: string; updatedAt: Date }>()
  for await (const blob of deps.blobs.list('orgs/')) {
    const match = DOCUMENT_KEY.exec(blob.key)
    if (!match?.[1] || !match[2]) continue
    const folder = documentFolder(match[1], match[2])
    const seen = newest.get(folder)
    if (!seen || seen.updatedAt < blob.updatedAt)
      newest.set(folder, { orgId: match[1], documentId: match[2], updatedAt: blob.updatedAt })
  }
  const cutoff = Date.now() - minAgeMs
  const byOrg = new Map<string, string[]>()
  for (const { orgId, documentId, updatedAt } of newest.values()) {
    if (updatedAt.getTime() > cutoff) continue
    byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), documentId])
  }
  let removed = 0
  for (const [orgId, ids] of byOrg) {
    // Ids that are not UUIDs cannot be rows; the query below only takes UUIDs.
    const candidates = ids.filter((id) => UUID.test(id))
    const existing = new Set(
      candidates.length === 0
        ? []
        : await withTenant(deps.db, { orgId }, async (tx) =>
            (
              await tx
                .select({ id: documents.id })
                .from(documents)
                .where(inArray(documents.id, candidates))
            ).map((r) => r.id),
          ),
    )
    for (const id of ids) {
      if (existing.has(id)) continue
      await deps.blobs.deletePrefix(documentFolder(orgId, id))
      removed += 1
    }
  }
  if (removed > 0)
    log.warn({ removed }, 'removed document files left without a row by an interrupted upload')
  return removed
}

/**
 * Start-up removal of files that no row owns (decision 11). Uploads write the file before the row,
 * and jobs read files that were stored for them, so a crash can leave a file behind: a document's
 * folder without its row, a recording without its row, an import file whose job has ended. Each
 * feature describes its files as a `FileOwnership`; one walk over the store serves them all.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/client'
import { withTenant, type Tx } from '../db/tenant'
import type { BlobStore } from './blob-store'
import { ORGS_PREFIX, parseOrgBlobKey, type BlobArea } from './blob-keys'

/** One feature's files and who owns them. */
export interface FileOwnership {
  /** The area of the organisation's files these are (blob-keys.ts). */
  area: BlobArea
  /**
   * The unit whose files are kept or removed together, from the key's segments after the area
   * (a document's folder: its id); when absent, each key is its own unit.
   */
  unitOf?: (rest: string[]) => string
  /** Which of `units` (of the organisation whose RLS scope `tx` has) still have an owner. */
  owned(tx: Tx, units: string[]): Promise<Iterable<string>>
  /** Removes the files of one unit of organisation `orgId`. */
  remove(blobs: BlobStore, orgId: string, unit: string): Promise<void>
  /** What the log calls these files, e.g. 'document files'. */
  label: string
}

/** Units whose owners one query looks up. */
const OWNER_LOOKUP_BATCH = 1000

interface Unit {
  kind: FileOwnership
  orgId: string
  unit: string
  updatedAt: Date
}

/**
 * Removes every unit of `kinds` that has no owner. Units written less than `minAgeMs` ago (judged
 * by their newest file) are kept: with PostgreSQL another server process may be between writing
 * a file and its row (PGlite admits one process, so 0 is safe there). Owners are looked up per
 * organisation under its RLS scope. Logs one warning per kind that lost files; returns how many
 * units were removed in all.
 */
export async function removeOrphanFiles(
  deps: { db: Db; blobs: BlobStore },
  log: Pick<FastifyBaseLogger, 'warn'>,
  kinds: FileOwnership[],
  minAgeMs: number,
): Promise<number> {
  const units = new Map<string, Unit>()
  for await (const blob of deps.blobs.list(ORGS_PREFIX)) {
    const owner = parseOrgBlobKey(blob.key)
    const kind = kinds.find((k) => k.area === owner?.area)
    if (!owner || !kind) continue
    const unit = kind.unitOf ? kind.unitOf(owner.rest) : blob.key
    const id = `${kind.label}\u0000${owner.orgId}\u0000${unit}`
    const seen = units.get(id)
    if (!seen || seen.updatedAt < blob.updatedAt)
      units.set(id, { kind, orgId: owner.orgId, unit, updatedAt: blob.updatedAt })
  }
  const cutoff = Date.now() - minAgeMs
  const groups = new Map<string, Unit[]>()
  for (const unit of units.values()) {
    if (unit.updatedAt.getTime() > cutoff) continue
    const group = `${unit.kind.label}\u0000${unit.orgId}`
    const members = groups.get(group)
    if (members) members.push(unit)
    else groups.set(group, [unit])
  }
  const removed = new Map<FileOwnership, number>()
  for (const group of groups.values()) {
    const { kind, orgId } = group[0]!
    // In slices, so no lookup exceeds PostgreSQL's 65,535 bound parameters.
    for (let at = 0; at < group.length; at += OWNER_LOOKUP_BATCH) {
      const slice = group.slice(at, at + OWNER_LOOKUP_BATCH)
      const owned = new Set(
        await withTenant(deps.db, { orgId }, (tx) =>
          kind.owned(
            tx,
            slice.map((u) => u.unit),
          ),
        ),
      )
      for (const { unit } of slice) {
        if (owned.has(unit)) continue
        await kind.remove(deps.blobs, orgId, unit)
        removed.set(kind, (removed.get(kind) ?? 0) + 1)
      }
    }
  }
  for (const [kind, count] of removed)
    log.warn(
      { removed: count },
      `removed ${kind.label} left without a row by an interrupted upload or job`,
    )
  return [...removed.values()].reduce((sum, n) => sum + n, 0)
}

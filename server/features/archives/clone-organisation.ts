/**
 * Copies an organisation into a new one (issue 27's clone, decision 0072): the export writer
 * (export-archive.ts) writes the source's archive, with its passage embeddings, to a temporary
 * object `orgs/<source>/clones/<runId>.zip`, and the importer (import-job.ts) stages and
 * publishes it as a new organisation; the temporary archive is deleted however the clone ends.
 * An archive in between, rather than rows copied table to table, means the copy goes through
 * the same id remapping, member matching and all-or-nothing staging as every import, and that
 * no second code path can drift from the archive format.
 *
 * A clone taken while a document is being indexed (its passages are written a few at a time,
 * server/search/index-document.ts) copies the passages committed when the export read them, a
 * part of the document's; so the copy's indexing job for each such document is queued again, and
 * the copy's documents end fully indexed like the source's (issue 43).
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { PASSAGE_JOB_KIND } from '../../search/index-document'
import { withTenant, type Principal } from '../../db/tenant'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { EXPORTED_TABLES } from './archive-format'
import { blobTarget, writeExportArchive } from './export-archive'
import { importArchive, type ImportDeps } from './import-job'
import { jobArchiveKey } from './job-archive-files'
import { LEXDESK_VERSION } from './lexdesk-version'
import { sourceOrganisation } from './org-members'

/** The tables a clone without its buckets writes empty (their rows and stored objects). */
export const BUCKET_TABLES = ['storage_buckets', 'storage_objects'] as const

/**
 * What a clone needs: the importer's dependencies, whose job queue gets the copy's indexing of
 * the documents the source was still indexing.
 */
export type CloneDeps = ImportDeps

/**
 * The source's documents whose indexing job was queued or running, or ended after `since` (the
 * export's start): the passages the export read of them may be a part of what they end with.
 */
async function documentsIndexedSince(db: Db, actor: Principal, since: Date): Promise<Set<string>> {
  const found = await withTenant(db, actor, (tx) =>
    tx.execute<{ subject_id: string }>(sql`
      SELECT DISTINCT subject_id FROM jobs
      WHERE org_id = ${actor.orgId} AND kind = ${PASSAGE_JOB_KIND} AND subject_id IS NOT NULL
        AND (status IN ('queued', 'running') OR finished_at >= ${since.toISOString()})`),
  )
  return new Set(
    (found as unknown as { rows: { subject_id: string }[] }).rows.map((r) => r.subject_id),
  )
}

/** What to clone, for whom. */
export interface CloneRequest {
  /** Who asked, in the source organisation (audited there); a system principal for the command. */
  actor: Principal
  /** The owner of the copy: the person who asked, or the source's owner for the command. */
  ownerId: string
  /** The job doing it, or null for the command. */
  jobId: string | null
  targetOrgName: string
  /** Copy storage buckets and their objects (else both are left out). */
  cloneBuckets: boolean
}

/** The copy: its id and slug, and the rows per table (and files per folder) it received. */
export interface CloneSummary {
  orgId: string
  slug: string
  counts: Record<string, number>
}

/** Progress steps of the export half: the members, each table, each table's files. */
const EXPORT_STEPS = 1 + EXPORTED_TABLES.length + EXPORTED_TABLES.filter((t) => t.filesIn).length
/** Progress steps of the import half: the check, the members and each table. */
const IMPORT_STEPS = 2 + EXPORTED_TABLES.length

/**
 * Clones `request.actor.orgId` into a new organisation named `request.targetOrgName` owned by
 * `request.ownerId` (the source's members join with their roles, as in an import). `progress`
 * gets a fraction in 0..1 and a short message; `signal` cancels between pages and entries.
 * Throws the signal's reason, the import's problem or any store or database failure, having
 * removed the staged organisation and the temporary archive.
 */
export async function cloneOrganisation(
  deps: CloneDeps,
  request: CloneRequest,
  options: { signal: AbortSignal; progress(fraction: number, message: string): void },
): Promise<CloneSummary> {
  const runId = request.jobId ?? randomUUID()
  const archiveKey = jobArchiveKey('clones', request.actor.orgId, runId)
  let step = 0
  const report = (message: string) =>
    options.progress(Math.min(0.99, (++step / (EXPORT_STEPS + IMPORT_STEPS)) * 0.99), message)
  try {
    // Read from the database's clock, as the jobs' finished_at is written.
    const since = await databaseNow(deps.db)
    await writeExportArchive(
      deps,
      { orgId: request.actor.orgId },
      blobTarget(deps.blobs, archiveKey),
      {
        // The same server imports it: its embeddings are valid here, so nothing is re-indexed.
        includeEmbeddings: true,
        embedderId: deps.engines.embedder.id,
        lexdeskVersion: LEXDESK_VERSION,
        leaveOut: request.cloneBuckets ? [] : BUCKET_TABLES,
        signal: options.signal,
        progress: report,
      },
    )
    // After the export: a job that ended while the export read its document's passages counts.
    const reindexDocuments = await documentsIndexedSince(deps.db, request.actor, since)
    const copy = await importArchive(
      deps,
      // The source's own people, copied by its owner: they keep their rows and join the copy.
      { userId: request.ownerId, jobId: runId, keepPeople: true, reindexDocuments },
      { blobKey: archiveKey, orgName: request.targetOrgName },
      { signal: options.signal, progress: report },
    )
    const rows = Object.values(copy.counts).reduce((a, b) => a + b, 0)
    await withTenant(deps.db, request.actor, async (tx) => {
      const target = { type: 'organization', id: copy.orgId }
      await recordAudit(tx, request.actor, 'org.cloned', target, {
        rows,
        cloneBuckets: request.cloneBuckets,
      })
      await recordEvent(
        tx,
        request.actor,
        'org.cloned',
        { jobId: request.jobId, targetOrgId: copy.orgId, rows },
        null,
      )
    })
    const { slug } = await sourceOrganisation(deps.db, copy.orgId)
    return { orgId: copy.orgId, slug, counts: copy.counts }
  } finally {
    await deps.blobs.delete(archiveKey)
  }
}

/** The database's current time. */
async function databaseNow(db: Db): Promise<Date> {
  const result = await db.execute<{ now: string }>(sql`SELECT now()::text AS now`)
  return new Date((result as unknown as { rows: { now: string }[] }).rows[0]!.now)
}

/**
 * Copies an organisation into a new one (issue 27's clone, decision 0072): the export writer
 * (export-archive.ts) writes the source's archive, with its passage embeddings, to a temporary
 * object `orgs/<source>/clones/<runId>.zip`, and the importer (import-job.ts) stages and
 * publishes it as a new organisation; the temporary archive is deleted however the clone ends.
 * An archive in between, rather than rows copied table to table, means the copy goes through
 * the same id remapping, member matching and all-or-nothing staging as every import, and that
 * no second code path can drift from the archive format.
 */
import { randomUUID } from 'node:crypto'
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

/** What a clone needs: the importer's dependencies but the job queue (a clone queues nothing). */
export type CloneDeps = Omit<ImportDeps, 'jobs'>

/**
 * The import's job queue in a clone: never called, since the clone's archive carries this
 * server's own embeddings, so the importer keeps them and queues no re-indexing.
 */
const NO_QUEUE: ImportDeps['jobs'] = {
  enqueue: () => {
    throw new Error('A clone keeps its passage embeddings and queues no indexing job.')
  },
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
    const copy = await importArchive(
      { ...deps, jobs: NO_QUEUE },
      // The source's own people, copied by its owner: they keep their rows and join the copy.
      { userId: request.ownerId, jobId: runId, keepPeople: true },
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

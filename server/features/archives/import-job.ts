/**
 * The 'tenant-import' job (issue 27, decisions 0063 and 0071): checks the uploaded archive
 * (check-archive.ts; a hostile one ends the job with its 4xx problem before anything is
 * written), creates a hidden staging organisation (no member, `metadata` marking the job),
 * stages the archive into it in short transactions (import-archive.ts), then publishes it in
 * one transaction (publish-import.ts): as a new organisation, or by moving its rows into an
 * existing one. Any failure or a cancel sweeps the staging organisation (its rows go with it,
 * ON DELETE CASCADE) and its files; a retry after a crash sweeps what the first attempt staged,
 * or, if that attempt had published, finishes with its result.
 */
import { randomUUID } from 'node:crypto'
import { eq, like } from 'drizzle-orm'
import type { ZipFile } from 'yauzl'
import type { z } from 'zod'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import { tenantImportJobContract } from '../../jobs/contracts/tenant-import-job-contract'
import type { Db } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { documents, organization, recordings, storageObjects } from '../../db/schema'
import type { BlobStore } from '../../blob/blob-store'
import { assertOrgKey, orgBlobPrefix } from '../../blob/blob-keys'
import { AppError } from '../../errors/app-error'
import type { AppServices } from '../../services'
import { checkArchive } from './check-archive'
import { openBlobZip } from './blob-zip'
import { stageArchive, type StageOptions } from './import-archive'
import { assertOwnerOf } from './org-members'
import { EXPORTED_TABLES } from './archive-format'
import {
  publishAsNewOrg,
  publishedImport,
  publishIntoOrg,
  type ImportResult,
} from './publish-import'

export const IMPORT_JOB_KIND = tenantImportJobContract.kind

export type TenantImportInput = z.output<typeof tenantImportJobContract.input>

/** Where an import goes: a new organisation of `orgName`, or the existing `targetOrgId`. */
export type ImportTarget = { orgName: string } | { targetOrgId: string }

/** The job input's target (its schema admits exactly one of the two). */
function targetOf(input: TenantImportInput): ImportTarget {
  if (input.targetOrgId) return { targetOrgId: input.targetOrgId }
  if (input.orgName) return { orgName: input.orgName }
  throw new AppError('validation_failed', 'Provide target_org_id or enable create new org')
}

/**
 * The organisation `metadata` marking a staging organisation of job `jobId`, and the existing
 * organisation it is for: the database's `publish_import` moves its rows only into that one.
 */
const stagingMark = (jobId: string, intoOrgId?: string) =>
  JSON.stringify({ importJobId: jobId, intoOrgId })

/** A LIKE pattern matching every staging mark of job `jobId`, whatever target it names. */
const stagingMarks = (jobId: string) =>
  `${stagingMark(jobId)
    .slice(0, -1)
    .replace(/[\\%_]/g, '\\$&')}%`

/** A slug for `name`, made unique by a random suffix. */
function slugOf(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
  return `${base || 'org'}-${randomUUID().slice(0, 8)}`
}

/**
 * Removes every staging organisation of job `jobId` with its rows and files: the files its
 * rows name (an import into an existing organisation writes them under that organisation's
 * keys) and everything under its own prefix.
 */
export async function sweepStaging(db: Db, blobs: BlobStore, jobId: string): Promise<void> {
  const staged = await db
    .select({ id: organization.id })
    .from(organization)
    .where(like(organization.metadata, stagingMarks(jobId)))
  for (const { id } of staged) {
    const keys = await withTenant(db, { orgId: id }, async (tx) => [
      ...(await tx.select({ key: documents.fileKey }).from(documents)),
      ...(await tx.select({ key: recordings.fileKey }).from(recordings)),
      ...(await tx.select({ key: storageObjects.fileKey }).from(storageObjects)),
    ])
    for (const { key } of keys) if (key) await blobs.delete(key)
    await blobs.deletePrefix(orgBlobPrefix(id))
    await db.delete(organization).where(eq(organization.id, id))
  }
}

/** What an import needs: the store holding the archive, the database, the limits. */
export type ImportDeps = Pick<AppServices, 'db' | 'blobs'> & {
  jobs: Pick<AppServices['jobs'], 'enqueue'>
  engines: { embedder: { id: string } }
  /**
   * `maxOrganizationsPerUser` (MAX_ORGANIZATIONS_PER_USER) bounds a new organisation's owner;
   * absent for the operator's commands, which are not limited.
   */
  limits: { importMaxBytes: number; maxOrganizationsPerUser?: number }
}

/** Who imports: the owner (null: none named to the operator's command) and the job's id. */
export interface Importer {
  userId: string | null
  jobId: string
  /** The operator's command: recorded as the system's act. */
  bySystem?: boolean
  /**
   * A clone of an organisation of this server by its owner (decision 0072): the archive's people
   * are this server's, matched and kept. Never for an uploaded archive (decision 0103).
   */
  keepPeople?: boolean
  /**
   * A clone's: the archive's documents whose indexing was unfinished while it was written (their
   * passages may be a part), re-indexed in the copy although its embeddings are kept.
   */
  reindexDocuments?: ReadonlySet<string>
}

/**
 * Imports the archive stored under `input.blobKey` as a new organisation named
 * `input.orgName`, owned by `importer`, or into the existing `input.targetOrgId`; the work of
 * job `importer.jobId` (the operator's command passes a fresh id). Resolves to the
 * organisation's id and counts. Throws the archive's refusal or any failure after sweeping
 * everything it staged.
 */
export async function importArchive(
  deps: ImportDeps,
  importer: Importer,
  input: { blobKey: string } & ({ orgName: string } | { targetOrgId: string }),
  options: Pick<StageOptions, 'signal' | 'progress'>,
): Promise<ImportResult> {
  const zip = await openBlobZip(deps.blobs, input.blobKey)
  try {
    return await importZip(deps, zip, importer, input, options)
  } finally {
    zip.close()
  }
}

/**
 * importArchive over an open ZIP (the caller closes it): the job reads it from the store, the
 * operator's command from a file.
 */
export async function importZip(
  deps: ImportDeps,
  zip: ZipFile,
  importer: Importer,
  target: ImportTarget,
  options: Pick<StageOptions, 'signal' | 'progress'>,
): Promise<ImportResult> {
  const done = await publishedImport(deps.db, importer.jobId)
  if (done) return done
  await sweepStaging(deps.db, deps.blobs, importer.jobId)
  options.progress('Checking the archive')
  const checked = await checkArchive(zip, { maxBytes: deps.limits.importMaxBytes }, options.signal)
  const intoOrgId = 'targetOrgId' in target ? target.targetOrgId : undefined
  const stagingOrgId = randomUUID()
  const name = 'orgName' in target ? target.orgName : `Import ${importer.jobId}`
  await deps.db.insert(organization).values({
    id: stagingOrgId,
    name,
    slug: slugOf(name),
    metadata: stagingMark(importer.jobId, intoOrgId),
  })
  try {
    const keptEmbeddings =
      checked.manifest.embeddings.included &&
      checked.manifest.embeddings.embedder === deps.engines.embedder.id
    const staged = await stageArchive(deps, zip, checked, {
      ...options,
      stagingOrgId,
      intoOrgId,
      keepEmbeddings: keptEmbeddings,
      keepPeople: importer.keepPeople ?? false,
    })
    options.progress('Publishing')
    const ready = {
      stagingOrgId,
      staged,
      importerId: importer.userId,
      bySystem: importer.bySystem ?? false,
      jobId: importer.jobId,
      sourceOrgId: checked.manifest.source.orgId,
      keptEmbeddings,
      // Every document when the archive's embeddings are not this server's, else those a clone
      // caught mid-indexing.
      reindexDocumentIds: keptEmbeddings
        ? [...(importer.reindexDocuments ?? [])].flatMap(
            (id) => staged.documentIdsByArchiveId.get(id) ?? [],
          )
        : staged.documentIds,
      organizationLimit: deps.limits.maxOrganizationsPerUser ?? null,
    }
    return intoOrgId
      ? await publishIntoOrg(deps.db, deps.jobs, ready, intoOrgId)
      : await publishAsNewOrg(deps.db, deps.jobs, ready)
  } catch (error) {
    await sweepStaging(deps.db, deps.blobs, importer.jobId)
    throw error
  }
}

/**
 * The handler of 'tenant-import' jobs (contract: server/jobs/contracts/tenant-import-job-contract.ts;
 * two attempts, the second after sweeping the first's staging).
 */
export function importTenantJobHandler(
  services: AppServices,
): JobHandlerOf<typeof tenantImportJobContract> {
  return {
    async run(job, context) {
      if (!job.createdBy)
        throw new AppError('forbidden', 'An import needs the owner who started it.')
      assertOrgKey(job.orgId, job.input.blobKey, 'imports')
      let step = 0
      try {
        const target = targetOf(job.input)
        // Checked again when it runs: the importer may have lost the target since asking.
        if ('targetOrgId' in target)
          await assertOwnerOf(services.db, job.createdBy, target.targetOrgId)
        const result = await importArchive(
          services,
          { userId: job.createdBy, jobId: job.id },
          { blobKey: job.input.blobKey, ...target },
          {
            signal: context.signal,
            // The check, each table, the publication and the members (14 tables: 18 steps).
            progress: (message) =>
              context.progress(Math.min(0.99, ++step / (EXPORTED_TABLES.length + 4)), message),
          },
        )
        await services.blobs.delete(job.input.blobKey)
        return result
      } catch (error) {
        if (error instanceof AppError || job.attempts >= job.maxAttempts)
          await services.blobs.delete(job.input.blobKey)
        throw error
      }
    },
  }
}

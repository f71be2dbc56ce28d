/**
 * The 'tenant-import' job (issue 27, decision 0063): checks the uploaded archive
 * (check-archive.ts; a hostile one ends the job with its 4xx problem before anything is
 * written), creates a hidden staging organisation (no member, `metadata` marking the job),
 * stages the archive into it in short transactions (import-archive.ts), then publishes it in
 * one transaction: the importer becomes its owner, matched people members, unknown people
 * pending invitations, and the mark goes. Any failure, a cancel, or a retry after a crash
 * first sweeps the staging organisation (its rows go with it, ON DELETE CASCADE) and its files.
 */
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { defineJob } from '../../jobs/define-job'
import type { Db } from '../../db/client'
import { withTenant, type Principal } from '../../db/tenant'
import { invitation, member, organization } from '../../db/schema'
import type { BlobStore } from '../../blob/blob-store'
import { assertOrgKey, orgBlobPrefix } from '../../blob/blob-keys'
import { AppError } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { CHUNK_JOB_KIND } from '../../search/index-document'
import type { AppServices } from '../../services'
import { checkArchive } from './check-archive'
import { openBlobZip } from './blob-zip'
import { stageArchive, type StageOptions } from './import-archive'

export const IMPORT_JOB_KIND = 'tenant-import' as const

const ImportJobInput = z.object({
  blobKey: z.string().min(1),
  orgName: z.string().min(1).max(200),
})
export type TenantImportInput = z.output<typeof ImportJobInput>

const ImportJobResult = z
  .object({
    orgId: z.string(),
    counts: z.record(z.string(), z.number().int().nonnegative()),
    invitations: z.number().int().nonnegative(),
  })
  .meta({ id: 'TenantImportJobResult' })

/** Invitations made by an import stay open a week, as better-auth's own do. */
const INVITATION_DAYS = 7

/** The organisation `metadata` marking a staging organisation of job `jobId`. */
const stagingMark = (jobId: string) => JSON.stringify({ importJobId: jobId })

/** A slug for `name`, made unique by a random suffix. */
function slugOf(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
  return `${base || 'org'}-${randomUUID().slice(0, 8)}`
}

/** Removes every staging organisation of job `jobId` with its rows and files. */
export async function sweepStaging(db: Db, blobs: BlobStore, jobId: string): Promise<void> {
  const staged = await db
    .select({ id: organization.id })
    .from(organization)
    .where(eq(organization.metadata, stagingMark(jobId)))
  for (const { id } of staged) {
    await blobs.deletePrefix(orgBlobPrefix(id))
    await db.delete(organization).where(eq(organization.id, id))
  }
}

/** What an import needs: the store holding the archive, the database, the limits. */
export type ImportDeps = Pick<AppServices, 'db' | 'blobs'> & {
  jobs: Pick<AppServices['jobs'], 'enqueue'>
  engines: { embedder: { id: string } }
  limits: { importMaxBytes: number }
}

/**
 * Imports the archive stored under `blobKey` as a new organisation named `orgName`, owned by
 * `importer`; the work of job `jobId` (null: the operator's command, for which `importer` is
 * the owner given). Resolves to the new organisation's id and counts. Throws the archive's
 * refusal or any failure after sweeping everything it staged.
 */
export async function importArchive(
  deps: ImportDeps,
  importer: { userId: string; jobId: string },
  input: TenantImportInput,
  options: Pick<StageOptions, 'signal' | 'progress'>,
): Promise<z.input<typeof ImportJobResult>> {
  await sweepStaging(deps.db, deps.blobs, importer.jobId)
  const zip = await openBlobZip(deps.blobs, input.blobKey)
  try {
    options.progress('Checking the archive')
    const checked = await checkArchive(
      zip,
      { maxBytes: deps.limits.importMaxBytes },
      options.signal,
    )
    const orgId = randomUUID()
    await deps.db.insert(organization).values({
      id: orgId,
      name: input.orgName,
      slug: slugOf(input.orgName),
      metadata: stagingMark(importer.jobId),
    })
    try {
      const keepEmbeddings =
        checked.manifest.embeddings.included &&
        checked.manifest.embeddings.embedder === deps.engines.embedder.id
      const staged = await stageArchive(deps, zip, checked, {
        ...options,
        stagingOrgId: orgId,
        keepEmbeddings,
      })
      const rows = Object.values(staged.counts).reduce((a, b) => a + b, 0)
      const owner: Principal = { orgId, userId: importer.userId, role: 'owner', actorType: 'user' }
      await deps.db.transaction(async (tx) => {
        const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000)
        const joined = [
          { userId: importer.userId, role: 'owner' },
          ...staged.members.filter((m) => m.userId !== importer.userId),
        ]
        await tx
          .insert(member)
          .values(joined.map((m) => ({ id: randomUUID(), organizationId: orgId, ...m })))
        if (staged.invitations.length > 0)
          await tx.insert(invitation).values(
            staged.invitations.map((i) => ({
              id: randomUUID(),
              organizationId: orgId,
              email: i.email,
              role: i.role,
              expiresAt,
              inviterId: importer.userId,
            })),
          )
        await tx.update(organization).set({ metadata: null }).where(eq(organization.id, orgId))
      })
      await withTenant(deps.db, owner, async (tx) => {
        await recordAudit(
          tx,
          owner,
          'org.imported',
          { type: 'organization', id: orgId },
          {
            rows,
            sourceOrgId: checked.manifest.source.orgId,
          },
        )
        await recordEvent(
          tx,
          owner,
          'org.imported',
          { jobId: importer.jobId, sourceOrgId: checked.manifest.source.orgId, rows },
          null,
        )
        // Passages without this server's embeddings are re-indexed by the indexing job.
        if (!keepEmbeddings)
          for (const documentId of staged.documentIds)
            await deps.jobs.enqueue(
              tx,
              owner,
              CHUNK_JOB_KIND,
              { documentId },
              { subjectId: documentId },
            )
      })
      return { orgId, counts: staged.counts, invitations: staged.invitations.length }
    } catch (error) {
      await sweepStaging(deps.db, deps.blobs, importer.jobId)
      throw error
    }
  } finally {
    zip.close()
  }
}

/** The 'tenant-import' job kind: two attempts, the second after sweeping the first's staging. */
export const importTenantJob = defineJob({
  kind: IMPORT_JOB_KIND,
  input: ImportJobInput,
  result: ImportJobResult,
  maxAttempts: 2,
  handler: (services: AppServices) => ({
    async run(job, context) {
      if (!job.createdBy)
        throw new AppError('forbidden', 'An import needs the owner who started it.')
      assertOrgKey(job.orgId, job.input.blobKey, 'imports')
      let step = 0
      try {
        const result = await importArchive(
          services,
          { userId: job.createdBy, jobId: job.id },
          job.input,
          {
            signal: context.signal,
            progress: (message) => context.progress(Math.min(0.99, ++step / 18), message),
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
  }),
})

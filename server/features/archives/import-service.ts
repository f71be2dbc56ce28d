/**
 * Starting an organisation import (issue 27): the upload sink that streams the archive into
 * the blob store (never whole in memory), and the queueing of the 'tenant-import' job.
 */
import { randomUUID } from 'node:crypto'
import type { FileSink } from '../../uploads/read-multipart'
import type { BlobStore } from '../../blob/blob-store'
import { orgBlobKey } from '../../blob/blob-keys'
import { withTenant, type Principal } from '../../db/tenant'
import { recordAudit } from '../../audit/record-audit'
import { AppError } from '../../errors/app-error'
import type { JobOfKind } from '../../jobs/job-service'
import type { tenantImportJobContract } from '../../jobs/contracts/tenant-import-job-contract'
import type { AppServices } from '../../services'
import { IMPORT_JOB_KIND } from './import-job'
import { assertOwnerOf } from './org-members'

/** An uploaded archive in the store, not yet queued. */
export interface StoredArchive {
  blobKey: string
}

/** Streams the uploaded archive into the organisation's imports folder; a refusal deletes it. */
export function archiveSink(blobs: BlobStore, orgId: string): FileSink<StoredArchive> {
  return {
    async store(file) {
      const blobKey = orgBlobKey(orgId, 'imports', `${randomUUID()}.zip`)
      await blobs.putStream(blobKey, file.chunks, 'application/zip')
      return { blobKey }
    },
    discard: (stored) => blobs.delete(stored.blobKey),
  }
}

/** The import form's fields as the spec names them (section 7), all strings. */
export interface ImportFields {
  target_org_id?: string
  create_org_if_missing?: string
  org_name?: string
}

/**
 * Queues the import of a stored archive as a new organisation (`create_org_if_missing` 'true'
 * and `org_name`) or into an existing one (`target_org_id`, whose owner the caller must be:
 * 404 `organization_not_found` for an unknown organisation or one the caller is not a member
 * of, 403 `forbidden` below owner); the archive is deleted if queueing is refused. 400
 * `validation_failed` 'Provide target_org_id or enable create new org' without either.
 */
export async function startTenantImport(
  services: Pick<AppServices, 'db' | 'jobs' | 'blobs'>,
  principal: Principal,
  stored: StoredArchive,
  fields: ImportFields,
): Promise<JobOfKind<typeof tenantImportJobContract>> {
  try {
    const create = fields.create_org_if_missing === 'true'
    const targetOrgId = fields.target_org_id?.trim() || undefined
    if (!create && !targetOrgId)
      throw new AppError('validation_failed', 'Provide target_org_id or enable create new org')
    const orgName = create ? fields.org_name?.trim() : undefined
    if (create && !orgName)
      throw new AppError('validation_failed', 'org_name: name the new organisation')
    if (!create && targetOrgId) {
      if (!principal.userId) throw new AppError('forbidden', 'An import needs an owner.')
      await assertOwnerOf(services.db, principal.userId, targetOrgId)
    }
    const input = create
      ? { blobKey: stored.blobKey, orgName }
      : { blobKey: stored.blobKey, targetOrgId }
    // Audited where it was asked for (this organisation), beside the job; the receiving
    // organisation's own 'org.imported' entry follows when the job publishes the import.
    return await withTenant(services.db, principal, async (tx) => {
      const job = await services.jobs.enqueue(tx, principal, IMPORT_JOB_KIND, input)
      await recordAudit(
        tx,
        principal,
        'org.import_requested',
        { type: 'job', id: job.id },
        create ? { orgName } : { targetOrgId },
      )
      return job
    })
  } catch (error) {
    await services.blobs.delete(stored.blobKey)
    throw error
  }
}

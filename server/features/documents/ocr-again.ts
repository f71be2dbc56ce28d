/**
 * Reading a scan without text again (issue 26): after its OCR failed or was cancelled, or for a
 * scan uploaded before OCR existed, the document page's "Read text (OCR)" queues a new 'ocr' job.
 * Idempotent while one runs: the queued or running job is answered instead of a second.
 */
import { and, desc, eq, inArray } from 'drizzle-orm'
import { documents, jobs } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError, notFound } from '../../errors/app-error'
import { ACTIVE_STATUSES, asJobOf, toJob, type JobOfKind } from '../../jobs/job-service'
import { ocrJobContract } from '../../jobs/contracts/ocr-job-contract'
import { checkOcrLanguages } from '../../ai/ocr/check-ocr-languages'
import type { AppServices } from '../../services'
import { assertOrgKey } from '../../blob/blob-keys'
import { withBlobCopy } from '../../documents/with-blob-copy'
import { MAX_UPLOAD_BYTES } from './schemas'
import { extractTextInPool } from './extract-in-pool'
import { enqueueOcr, OCR_JOB_KIND } from './ocr-job'
import { getDocument } from './service'
import { recordAudit } from '../../audit/record-audit'

const NOT_NEEDED = 'Only a PDF without text can be read by OCR; this document has its text.'

/**
 * Queues the OCR of document `id` and returns its job (or the one already queued or running),
 * audited as `document.ocr_requested` either way.
 * 404 for another organisation's document, 409 `ocr_not_needed` for one with text or not a PDF,
 * 503 for a missing language pack, and the extraction's errors when counting its pages.
 */
export async function enqueueOcrAgain(
  services: AppServices,
  principal: Principal,
  id: string,
): Promise<JobOfKind<typeof ocrJobContract>> {
  const row = await getDocument(services.db, principal, id)
  if (row.fileKey) assertOrgKey(principal.orgId, row.fileKey, 'documents')
  if (row.textStatus !== 'empty' || row.mimeType !== 'application/pdf' || !row.fileKey)
    throw new AppError('ocr_not_needed', NOT_NEEDED)
  // The page count and the scanned pages, read as the upload read them (same limits).
  const fileName = row.fileName ?? 'document.pdf'
  const extracted = await withBlobCopy(services.blobs, row.fileKey, MAX_UPLOAD_BYTES, (file) =>
    extractTextInPool(
      services.pool,
      services.limits.extraction,
      { path: file, fileName },
      { orgId: principal.orgId },
    ),
  )
  const pages = extracted?.pages
  if (!pages || !extracted || extracted.scannedPages.length === 0)
    throw new AppError('ocr_not_needed', NOT_NEEDED)
  await checkOcrLanguages(services.limits.ocrLanguages, services.pool)
  return withTenant(services.db, principal, async (tx) => {
    const [locked] = await tx
      .select({ textStatus: documents.textStatus })
      .from(documents)
      .where(eq(documents.id, id))
      .for('update')
    if (!locked) throw notFound('Document')
    if (locked.textStatus !== 'empty') throw new AppError('ocr_not_needed', NOT_NEEDED)
    const [running] = await tx
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.subjectId, id),
          eq(jobs.kind, OCR_JOB_KIND),
          inArray(jobs.status, ACTIVE_STATUSES),
        ),
      )
      .orderBy(desc(jobs.createdAt))
      .limit(1)
    const job = running
      ? asJobOf(ocrJobContract, toJob(running))
      : await enqueueOcr(services, tx, principal, {
          documentId: id,
          pages,
          ocrPages: extracted.scannedPages,
        })
    // Who asked for a document to be read again is the firm's record, also when it already was.
    await recordAudit(
      tx,
      principal,
      'document.ocr_requested',
      { type: 'document', id },
      { jobId: job.id, alreadyQueued: running !== undefined },
    )
    return job
  })
}

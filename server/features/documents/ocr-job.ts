/**
 * The 'ocr' job (issue 26, decisions 0053 and 0062): recognises the text of a PDF's scanned pages,
 * page by page (progress "Reading page 3 of 12", cancel kills the running program), on slots of
 * the shared worker pool; the text layer of its other (typed) pages is read again from the PDF,
 * and the pages are merged in page order. Then in one tenant transaction it stores the text as the
 * document's content with `text_status` 'ocr' and where each page starts (so a citation falls on
 * its page), and queues the document's indexing again, so search, analyses and their citations
 * all use it; review cells answered while it had no text are answered again, text found or not
 * (reopenCellsForText).
 * It writes only a document still without text ('empty'), so it never overwrites a text layer or
 * an earlier recognition.
 */
import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { documents } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { AppError, notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import { ocrJobContract } from '../../jobs/contracts/ocr-job-contract'
import { documentPassagesJobContract } from '../../jobs/contracts/document-passages-job-contract'
import { endsForGood, jobPrincipal } from '../../jobs/job-runner'
import type { AppServices } from '../../services'
import { assertOrgKey } from '../../blob/blob-keys'
import { MAX_UPLOAD_BYTES } from './schemas'
import { joinPages, recognisePages, type OcrSettings } from '../../ai/ocr/recognise-pdf'
import { withBlobCopy } from '../../documents/with-blob-copy'
import { markCellsUnread, reopenCellsForText } from '../../documents/app-review-fills'
import { extractTextInPool } from './extract-in-pool'
import { checkOcrLanguages } from '../../ai/ocr/check-ocr-languages'
import { MAX_DOCUMENT_CHARACTERS } from './extract-text'

export const OCR_JOB_KIND = ocrJobContract.kind

const missingPdf = () => new AppError('file_not_found', 'The PDF of this document is missing.')

/**
 * Address-space cap of each OCR program in MiB. Tesseract 5.3 reading a 3,300-pixel page with the
 * English model peaked at ~120 MiB resident here and ran under a 200 MiB cap; 1 GiB leaves room for
 * several languages and stops a page built to make the renderer grow.
 */
const OCR_MEMORY_MB = 1024

/** The OCR settings of the app's services. */
export function ocrSettings(services: AppServices): OcrSettings {
  return {
    pool: services.pool,
    languages: services.limits.ocrLanguages,
    memoryMb: OCR_MEMORY_MB,
  }
}

/** Queues the OCR of document `documentId` (`pages` pages) in the caller's transaction `tx`. */
export function enqueueOcr(
  services: AppServices,
  tx: Tx,
  principal: Principal,
  input: z.input<typeof ocrJobContract.input>,
) {
  return services.jobs.enqueue(tx, principal, OCR_JOB_KIND, input, {
    subjectId: input.documentId,
  })
}

/** Stores the recognised text of a document still without text; false when it has text now. */
async function saveRecognisedText(
  services: AppServices,
  principal: Principal,
  documentId: string,
  recognised: { text: string; pageStarts: number[] },
): Promise<boolean> {
  // A scan with nothing legible keeps 'empty'; its page starts say that OCR has read it.
  const found = recognised.text.trim().length > 0
  return withTenant(services.db, principal, async (tx) => {
    const updated = await tx
      .update(documents)
      .set({
        content: recognised.text,
        textStatus: found ? 'ocr' : 'empty',
        pageStarts: recognised.pageStarts,
      })
      .where(and(eq(documents.id, documentId), eq(documents.textStatus, 'empty')))
      .returning({ id: documents.id })
    if (updated.length === 0) return false
    await recordAudit(
      tx,
      principal,
      'document.ocr',
      { type: 'document', id: documentId },
      { pages: recognised.pageStarts.length, characters: recognised.text.length },
    )
    if (found)
      await services.jobs.enqueue(
        tx,
        principal,
        documentPassagesJobContract.kind,
        { documentId },
        { subjectId: documentId },
      )
    await reopenCellsForText(services.jobs, tx, principal, documentId)
    return true
  })
}

/**
 * The handler of 'ocr' jobs (contract: server/jobs/contracts/ocr-job-contract.ts). A run that
 * ends the job without text for good (failed or cancelled; endsForGood) leaves the document's
 * review cells saying so rather than "still being read" (markCellsUnread), then throws as it was.
 */
export function ocrJobHandler(services: AppServices): JobHandlerOf<typeof ocrJobContract> {
  const read = readScan(services)
  return {
    async run(job, context) {
      try {
        return await read(job, context)
      } catch (error) {
        // What the job records is the run's own error: a failure to mark the cells leaves them
        // with their earlier reason and is not what went wrong.
        if (endsForGood(job, error, context.signal) && !isAppError(error, 'ocr_not_needed'))
          await withTenant(services.db, jobPrincipal(job), (tx) =>
            markCellsUnread(tx, job.input.documentId),
          ).catch(() => 0)
        throw error
      }
    },
  }
}

const isAppError = (error: unknown, code: string) =>
  error instanceof AppError && error.code === code

/** Reads the scan of an 'ocr' job and stores its text (see the module's comment). */
function readScan(services: AppServices): JobHandlerOf<typeof ocrJobContract>['run'] {
  return async (job, context) => {
    const { documentId, pages } = job.input
    const principal = jobPrincipal(job)
    const [row] = await withTenant(services.db, principal, (tx) =>
      tx
        .select({ fileKey: documents.fileKey, textStatus: documents.textStatus })
        .from(documents)
        .where(eq(documents.id, documentId)),
    )
    if (!row) throw notFound('Document')
    if (row.textStatus !== 'empty')
      throw new AppError('ocr_not_needed', 'This document already has its text.')
    if (!row.fileKey) throw missingPdf()
    assertOrgKey(principal.orgId, row.fileKey, 'documents')
    // Every page's programs in the organisation's fair share of the pool (decision 0107).
    const settings = { ...ocrSettings(services), orgId: principal.orgId }
    await checkOcrLanguages(settings.languages, services.pool)
    const all = Array.from({ length: pages }, (_, index) => index + 1)
    const ocrPages = (job.input.ocrPages ?? all).filter((page) => page <= pages)
    // One private copy streamed from the store serves both readers (issue 24: the PDF is never
    // held whole in memory).
    const readings = await withBlobCopy(
      services.blobs,
      row.fileKey,
      MAX_UPLOAD_BYTES,
      async (file) => {
        // The typed pages' text layer, read as the upload read it (same limits, on the pool).
        const layer =
          ocrPages.length < pages
            ? await extractTextInPool(
                services.pool,
                services.limits.extraction,
                { path: file, fileName: 'document.pdf' },
                { orgId: principal.orgId, signal: context.signal },
              )
            : null
        context.progress(0, `Reading page ${ocrPages[0]} of ${pages}`)
        const read = await recognisePages(file, ocrPages, settings, {
          signal: context.signal,
          onPage: (done, total) =>
            context.progress(
              done / total,
              done < total ? `Reading page ${ocrPages[done]} of ${pages}` : 'Saving the text',
            ),
        })
        return { layer, read }
      },
    )
    if (!readings) throw missingPdf()
    const { layer, read } = readings
    const recognisedOf = new Map(ocrPages.map((page, index) => [page, read[index] ?? '']))
    const recognised = joinPages(
      all.map((page) => recognisedOf.get(page) ?? layer?.pageTexts?.[page - 1] ?? ''),
    )
    if (recognised.text.length > MAX_DOCUMENT_CHARACTERS)
      throw new AppError('text_too_long', 'The recognised text is longer than a document may be.')
    if (!(await saveRecognisedText(services, principal, documentId, recognised)))
      throw new AppError('ocr_not_needed', 'This document already has its text.')
    return { documentId, pages, characters: recognised.text.length }
  }
}

/**
 * One uploaded file to one stored document: the document type checked, the text extracted on the
 * worker pool (type sniffed from the bytes, limits applied), the title taken from the form, the
 * PDF or the file name (upload-title.ts), then stored with its original file. Kept apart from HTTP so tenant import can reuse
 * it. Throws the AppErrors of DocumentType and appId (400), extraction (400/413/415/422), an
 * unknown app (404) and storage.
 */
import type { Principal } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { AppId } from '../../http/params'
import type { AppServices } from '../../services'
import { extractTextInPool } from './extract-in-pool'
import { uploadTitle } from './upload-title'
import { DocumentType } from './schemas'
import { createDocument, documentFolder } from '../../documents/document-writes'
import type { SpooledUpload } from '../../uploads/spool-upload'
import { checkOcrLanguages } from '../../ai/ocr/check-ocr-languages'
import { enqueueOcr } from './ocr-job'

/**
 * Stores `upload` (already in the store under documentFileKey(org, `id`), readable by path at
 * `upload.path`; uploads/spool-upload.ts) as document `id` of the principal's organisation and
 * returns its row. On any refusal the stored file is deleted: nothing is kept.
 */
export async function ingestUpload(
  services: AppServices,
  principal: Principal,
  input: {
    id: string
    file: SpooledUpload
    title?: string
    documentType?: string
    appId?: string
  },
) {
  try {
    return await ingest(services, principal, input)
  } catch (error) {
    await services.blobs.deletePrefix(documentFolder(principal.orgId, input.id))
    throw error
  }
}

async function ingest(
  services: AppServices,
  principal: Principal,
  input: Parameters<typeof ingestUpload>[2],
) {
  const appId = input.appId ? AppId.safeParse(input.appId) : undefined
  if (appId && !appId.success)
    throw new AppError('validation_failed', appId.error.issues[0]?.message ?? 'Invalid appId')
  const documentType = DocumentType.safeParse(input.documentType ?? 'contract')
  if (!documentType.success)
    throw new AppError(
      'bad_document_type',
      documentType.error.issues[0]?.message ?? 'Invalid document type',
    )
  const { file } = input
  // In the organisation's share of the pool: read at once even while another firm's scan holds
  // every slot (decision 0107).
  const extracted = await extractTextInPool(services.pool, services.limits.extraction, file, {
    orgId: principal.orgId,
  })
  // A PDF with scanned pages is stored without text and the OCR of those pages queued with it
  // (decisions 0053, 0062): the job stores the recognised pages merged with the typed ones, so
  // the text, its offsets and the analyses' citations never change after the upload. Without
  // the languages' packs it is refused (503) before anything is stored.
  const ocrPages = extracted.scannedPages
  const pages = ocrPages.length > 0 ? extracted.pages : null
  if (pages) await checkOcrLanguages(services.limits.ocrLanguages, services.pool)
  return createDocument(services, principal, {
    id: input.id,
    appId: appId?.data,
    title: uploadTitle({ given: input.title, fileName: file.fileName, extracted }),
    content: pages ? '' : extracted.text,
    documentType: documentType.data,
    file: {
      key: file.key,
      fileName: file.fileName,
      mimeType: extracted.mimeType,
      sizeBytes: file.size,
    },
    afterInsert: pages
      ? (tx, row) => enqueueOcr(services, tx, principal, { documentId: row.id, pages, ocrPages })
      : undefined,
  })
}

/**
 * HTTP routes of the documents feature (library, upload, paste, file download). Logic lives in
 * service.ts; uploads are read by readMultipart (uploads/read-multipart.ts), at most MAX_UPLOAD_BYTES.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError, notFound } from '../../errors/app-error'
import { principalOf } from '../../auth/principal'
import { randomUUID } from 'node:crypto'
import { readMultipart } from '../../uploads/read-multipart'
import { releaseSpool, spooled, spoolSink } from '../../uploads/spool-upload'
import { sniffContentType } from '../../media/sniff-content-type'
import type { FeatureContext } from '../../services'
import { DocumentParams, OrgParams } from '../../http/params'
import { ingestUpload } from './ingest-upload'
import {
  DocumentBulkDelete,
  DocumentListQuery,
  DocumentPage,
  DocumentSchema,
  MAX_PASTED_CHARACTERS,
  MAX_UPLOAD_BYTES,
  PASTE_BODY_LIMIT_BYTES,
  PastedDocument,
  DocumentUpdate,
  WeActForUpdate,
} from './schemas'
import { setWeActFor } from './set-we-act-for'
import { getDocument, documentList, getDocumentFile, renameDocument, toDocument } from './service'
import {
  createDocument,
  deleteDocument,
  deleteDocuments,
  documentFileKey,
} from '../../documents/document-writes'
import { streamResponse } from '../../http/stream-responses'
import { sendBlob } from '../../blob/send-blob'
import { problemResponse } from '../../http/problem-responses'
import { fileHeaders } from '../../media/file-download'
import { jobSchemaOf } from '../../job-schema'
import { documentPageImage } from './document-page-image'
import { enqueueOcrAgain } from './ocr-again'

/** The media types a document's original file is stored as. */
const DOCUMENT_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
]

/** A page of a document: 1-based, at most MAX_PDF_PAGES' ceiling. */
const DocumentPageParams = DocumentParams.extend({
  page: z.coerce.number().int().min(1).max(100_000),
})

/** The text fields of an upload; ingestUpload checks their values (bad_document_type, appId). */
const UploadFields = z.object({
  title: z.string().optional(),
  documentType: z.string().optional(),
  appId: z.string().optional(),
})

/**
 * Answers a paste longer than MAX_PASTED_CHARACTERS with 413 `text_too_long` before validation
 * (which would answer 400): over a limit is a 413, like an over-large file. Counted as the schema
 * counts, after dropping NUL characters.
 */
async function refuseOverlongPaste(req: FastifyRequest): Promise<void> {
  const content = (req.body as { content?: unknown } | undefined)?.content
  if (typeof content !== 'string') return
  if (content.replaceAll('\u0000', '').length <= MAX_PASTED_CHARACTERS) return
  throw new AppError(
    'text_too_long',
    `Pasted text may hold at most ${MAX_PASTED_CHARACTERS.toLocaleString('en-US')} characters; upload longer documents as a file.`,
  )
}

export const documentRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: deps },
) => {
  app.get(
    '/orgs/:orgId/documents',
    {
      schema: {
        operationId: 'listDocuments',
        tags: ['documents'],
        params: OrgParams,
        querystring: DocumentListQuery,
        response: { 200: DocumentPage },
      },
      config: { minRole: 'member' },
    },
    // The busiest list of the API: on the list kit's fast path (decision 0135), whose tests hold
    // its page to the kit's ordinary one and to the declared DocumentPage.
    (req, reply) => documentList.send(reply, deps.db, principalOf(req), req.query),
  )

  app.post(
    '/orgs/:orgId/documents',
    {
      schema: {
        operationId: 'uploadDocument',
        tags: ['documents'],
        description:
          'multipart/form-data with `file` (PDF, DOCX or UTF-8 text, at most 25 MB and, for PDFs, MAX_PDF_PAGES pages) and optional `title`, `documentType` and `appId` (an app of the organisation, 404 otherwise). 413 when too large or too long (the text past 10,000,000 characters, a DOCX unpacking past 256 MiB or 100:1), 415 for other types, 400 for corrupt files, 422 when reading the text takes longer than EXTRACTION_TIMEOUT_S or more memory than a worker may use.',
        consumes: ['multipart/form-data'],
        params: OrgParams,
        response: { 201: DocumentSchema },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const principal = principalOf(req)
      const id = randomUUID()
      // Streamed into the store as it arrives and written once; extraction reads it by path
      // (spool-upload.ts).
      const { file, fields } = await readMultipart(req, {
        maxBytes: MAX_UPLOAD_BYTES,
        fields: UploadFields,
        sink: spoolSink(deps.blobs, async (head) => ({
          key: documentFileKey(principal.orgId, id),
          contentType: await sniffContentType(head),
        })),
        missing: 'Choose a file to upload (field "file").',
      })
      const upload = spooled(file)
      try {
        const row = await ingestUpload(deps, principal, { id, file: upload, ...fields })
        return await reply.status(201).send(toDocument(row))
      } finally {
        await releaseSpool(upload)
      }
    },
  )

  app.post(
    '/orgs/:orgId/documents/text',
    {
      schema: {
        operationId: 'createTextDocument',
        tags: ['documents'],
        params: OrgParams,
        body: PastedDocument,
        response: { 201: DocumentSchema },
      },
      bodyLimit: PASTE_BODY_LIMIT_BYTES,
      preValidation: refuseOverlongPaste,
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const row = await createDocument(deps, principalOf(req), {
        title: req.body.title,
        content: req.body.content.replace(/\r\n?/g, '\n'),
        documentType: req.body.documentType,
        appId: req.body.appId,
      })
      return reply.status(201).send(toDocument(row))
    },
  )

  app.get(
    '/orgs/:orgId/documents/:documentId',
    {
      schema: {
        operationId: 'getDocument',
        tags: ['documents'],
        params: DocumentParams,
        response: { 200: DocumentSchema },
      },
      config: { minRole: 'member' },
    },
    async (req) => toDocument(await getDocument(deps.db, principalOf(req), req.params.documentId)),
  )

  app.delete(
    '/orgs/:orgId/documents/:documentId',
    {
      schema: {
        operationId: 'deleteDocument',
        tags: ['documents'],
        description:
          'Deletes the document, its analyses and its original file, and stops its jobs (a waiting analysis or indexing is cancelled; a running one stops within seconds). A member may delete only documents they created (403 otherwise); admins and owners may delete any.',
        params: DocumentParams,
        response: { 204: z.null() },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      await deleteDocument(deps, principalOf(req), req.params.documentId)
      return reply.status(204).send(null)
    },
  )

  app.patch(
    '/orgs/:orgId/documents/:documentId',
    {
      schema: {
        operationId: 'updateDocument',
        tags: ['documents'],
        description:
          'Renames the document: the title is made one line (control and bidirectional characters removed), 1 to 300 characters. A member may rename only documents they created (403 otherwise); admins and owners may rename any.',
        params: DocumentParams,
        body: DocumentUpdate,
        response: { 200: DocumentSchema },
      },
      config: { minRole: 'member' },
    },
    async (req) =>
      toDocument(
        await renameDocument(deps.db, principalOf(req), req.params.documentId, req.body.title),
      ),
  )

  app.put(
    '/orgs/:orgId/documents/:documentId/we-act-for',
    {
      schema: {
        operationId: 'setWeActFor',
        tags: ['documents'],
        description:
          "Stores whom the firm acts for in the document: `{ kind: 'party', party }` (a party its newest analysis extracted, by name, defined term or role) or `{ kind: 'role', role }` (licensee, customer, employee…, the party holding that role); null clears it. listAnalyses then says of every risk whose it is and why, oriented to that party. 400 `unknown_party` when no analysed party matches. A member may change only documents they created (403 otherwise); admins and owners may change any.",
        params: DocumentParams,
        body: WeActForUpdate,
        response: { 200: DocumentSchema },
      },
      config: { minRole: 'member' },
    },
    async (req) =>
      toDocument(
        await setWeActFor(deps.db, principalOf(req), req.params.documentId, req.body.weActFor),
      ),
  )

  app.post(
    '/orgs/:orgId/documents/bulk-delete',
    {
      schema: {
        operationId: 'deleteDocuments',
        tags: ['documents'],
        description:
          "Deletes the organisation's documents among `ids` (at most 200) as deleteDocument does, in one transaction: if a member's selection holds a document they did not create, the answer is 403 and none is deleted. Ids of no document (or another organisation's) are skipped. Answers how many were deleted.",
        params: OrgParams,
        body: DocumentBulkDelete,
        response: { 200: z.object({ deleted: z.number().int() }) },
      },
      config: { minRole: 'member' },
    },
    async (req) => ({ deleted: await deleteDocuments(deps, principalOf(req), req.body.ids) }),
  )

  app.get(
    '/orgs/:orgId/documents/:documentId/file',
    {
      schema: {
        operationId: 'getDocumentFile',
        tags: ['documents'],
        description:
          "The original uploaded file, streamed, as an attachment with its file name, `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox`; honours a single `Range: bytes=…` request (206 with `Content-Range`; 416 when no byte of it exists).",
        params: DocumentParams,
        response: {
          200: streamResponse('The file, with the media type it was stored with', DOCUMENT_TYPES),
          206: streamResponse('The requested byte range of the file', DOCUMENT_TYPES),
          416: problemResponse('The range is outside the file'),
        },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const file = await getDocumentFile(deps, principalOf(req), req.params.documentId)
      return sendBlob(req, reply, deps.blobs, { ...file, missing: () => notFound('File') })
    },
  )

  app.get(
    '/orgs/:orgId/documents/:documentId/pages/:page',
    {
      schema: {
        operationId: 'getDocumentPage',
        tags: ['documents'],
        description:
          "The image of page `page` (1-based) of a scan read by OCR (`pageStarts` not null), as a greyscale PNG 1,600 pixels on its long side, rendered from the stored PDF; an attachment with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox`. 404 for other documents and pages.",
        params: DocumentPageParams,
        response: { 200: streamResponse('The page as a PNG image', ['image/png']) },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const { documentId, page } = req.params
      const png = await documentPageImage(deps, principalOf(req), documentId, page)
      return fileHeaders(reply, { contentType: 'image/png', fileName: `page-${page}.png` }).send(
        png,
      )
    },
  )

  app.post(
    '/orgs/:orgId/documents/:documentId/ocr',
    {
      schema: {
        operationId: 'startDocumentOcr',
        tags: ['documents'],
        description:
          'Reads the text of a scanned PDF without text (`textStatus` empty) again by OCR, as a background job (202 with the job; the running one when it is already being read). 409 `ocr_not_needed` for a document with text or that is not a PDF; 503 `ocr_language_missing` naming the Debian package of a missing OCR_LANGUAGES pack.',
        params: DocumentParams,
        response: { 202: jobSchemaOf('ocr') },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const job = await enqueueOcrAgain(deps, principalOf(req), req.params.documentId)
      return reply.status(202).send(job)
    },
  )
}

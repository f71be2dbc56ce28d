/** Zod schemas of the documents API: they validate requests, type handlers and document OpenAPI. */
import { z } from 'zod'
import { OrgParams } from '../../http/org-params'
import { PageQuery, pageOf } from '../../http/paging'

export const DocumentParams = OrgParams.extend({
  documentId: z.string().uuid({ message: 'Document id must be a UUID' }),
})

export const DocumentType = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9 _-]*$/, 'Document type may hold letters, digits, spaces, - and _')

export const TextStatus = z.enum(['ok', 'empty'])

export const DocumentSchema = z
  .object({
    id: z.string().uuid(),
    title: z.string(),
    content: z.string(),
    documentType: z.string(),
    createdAt: z.string(),
    createdBy: z.string().nullable(),
    fileName: z.string().nullable(),
    mimeType: z.string().nullable(),
    sizeBytes: z.number().int().nullable(),
    textStatus: TextStatus,
    textStatusMessage: z.string().nullable(),
  })
  .meta({ id: 'Document' })

export const DocumentCard = z
  .object({
    id: z.string().uuid(),
    title: z.string(),
    documentType: z.string(),
    preview: z.string().describe('First 150 characters of the content'),
    createdAt: z.string(),
    textStatus: TextStatus,
  })
  .meta({ id: 'DocumentCard' })

export const DocumentListQuery = PageQuery.extend({
  q: z.string().max(200).optional().describe('Case-insensitive match on title or content'),
  type: z.string().max(40).optional().describe("A document type, or 'all'"),
})

export const DocumentPage = pageOf(DocumentCard).extend({
  types: z.array(z.string()).describe('Distinct document types of the organisation'),
})

export const PastedDocument = z.object({
  title: z.string().trim().min(1, 'Give the document a title').max(300),
  content: z
    .string()
    // PostgreSQL text cannot hold NUL; it carries no meaning in a document, so it is dropped.
    .transform((s) => s.replaceAll('\u0000', ''))
    .refine((s) => s.trim().length > 0, 'Please paste a document to analyze')
    .pipe(z.string().max(5_000_000)),
  documentType: DocumentType.default('contract'),
})

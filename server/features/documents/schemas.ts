/** Zod schemas of the documents API: they validate requests, type handlers and document OpenAPI. */
import { z } from 'zod'
import { toSingleLineText } from '../../http/single-line-text'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { AppId } from '../../http/params'
import { WeActFor } from '../../ai/analyzer/we-act-for'

export const DocumentType = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9 _-]*$/, 'Document type may hold letters, digits, spaces, - and _')

/** 'ok': extracted text; 'empty': none (a scan awaiting or past its OCR); 'ocr': recognised. */
export const TextStatus = z.enum(['ok', 'empty', 'ocr'])

export const DocumentSchema = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable().describe('The app it belongs to; null = organisation-wide'),
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
    pageStarts: z
      .array(z.number().int())
      .nullable()
      .describe(
        "For a scan read by OCR: where each page's text starts in `content` (page 1 first); its page images are getDocumentPage. Null otherwise.",
      ),
    weActFor: WeActFor.nullable().describe(
      'Whom the firm acts for in this document (setWeActFor); its analyses orient their risks to it. Null until chosen.',
    ),
  })
  .meta({ id: 'Document' })

export const DocumentCard = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable(),
    title: z.string(),
    documentType: z.string(),
    preview: z.string().describe('First 150 characters of the content'),
    createdAt: z.string(),
    textStatus: TextStatus,
  })
  .meta({ id: 'DocumentCard' })

/** Most documents one listing may name by id (`ids`): a page of a review grid's rows, say. */
export const MAX_LISTED_IDS = 100

/**
 * `ids` of the document list: comma-separated document ids (UUIDs, repeats dropped, case
 * folded), at most MAX_LISTED_IDS; anything else is a 400 problem naming the parameter.
 */
const DocumentIds = z
  .string()
  .max(MAX_LISTED_IDS * 40, `ids names at most ${MAX_LISTED_IDS} documents`)
  .transform((text, ctx) => {
    const ids = [...new Set(text.split(',').map((id) => id.trim().toLowerCase()))]
    const problem =
      ids.length > MAX_LISTED_IDS
        ? `ids names at most ${MAX_LISTED_IDS} documents`
        : !z.array(z.uuid()).safeParse(ids).success
          ? 'ids must be comma-separated document ids (UUIDs)'
          : null
    if (!problem) return ids
    ctx.addIssue({ code: 'custom', message: problem })
    return z.NEVER
  })

export const DocumentListQuery = PageQuery.extend({
  q: z
    .string()
    .max(200)
    .transform(toSingleLineText)
    .optional()
    .describe('Case-insensitive match on title or content'),
  type: z.string().max(40).optional().describe("A document type, or 'all'"),
  appId: AppId.optional().describe("Only this app's documents; absent = all of the organisation's"),
  ids: DocumentIds.optional().describe(
    `Only these documents: comma-separated ids, at most ${MAX_LISTED_IDS} (set limit to cover them); an id the caller cannot reach (another organisation's or app's) matches nothing`,
  ),
})

export const DocumentPage = pageOf(DocumentCard).extend({
  types: z.array(z.string()).describe('Distinct document types of the organisation'),
})

/** Longest pasted text: 1,000,000 characters (UTF-16 code units, as JavaScript counts). */
export const MAX_PASTED_CHARACTERS = 1_000_000
const MAX_TITLE_CHARACTERS = 300

/**
 * Body limit of the paste route, in bytes: JSON writes one character as at most 6 bytes (a
 * control character or lone surrogate as `\u0001`, RFC 8259 §7), so the longest text and title
 * always fit, plus 64 KiB for the other fields and punctuation. Anything larger is refused with
 * a 413 problem before it is parsed.
 */
export const PASTE_BODY_LIMIT_BYTES = 6 * (MAX_PASTED_CHARACTERS + MAX_TITLE_CHARACTERS) + 65_536

/** A title: one line, control and bidi characters removed (see single-line-text.ts). */
export const DocumentTitle = z
  .string()
  .transform(toSingleLineText)
  .pipe(z.string().min(1, 'Give the document a title').max(MAX_TITLE_CHARACTERS))

/** The body of a rename: the new title, cleaned as every title is. */
export const DocumentUpdate = z.object({ title: DocumentTitle })

/** The body of setWeActFor: a party or a role, or null to clear the choice. */
export const WeActForUpdate = z.object({ weActFor: WeActFor.nullable() })

/** Most ids one bulk delete takes: the library's largest page (200). */
export const MAX_BULK_DELETE = 200

export const DocumentBulkDelete = z.object({
  ids: z
    .array(z.string().uuid({ message: 'Document ids must be UUIDs' }))
    .min(1, 'Select at least one document')
    .max(MAX_BULK_DELETE),
})

export const PastedDocument = z.object({
  title: DocumentTitle,
  content: z
    .string()
    // PostgreSQL text cannot hold NUL; it carries no meaning in a document, so it is dropped.
    .transform((s) => s.replaceAll('\u0000', ''))
    .refine((s) => s.trim().length > 0, 'Please paste a document to analyze')
    .pipe(
      z
        .string()
        .max(
          MAX_PASTED_CHARACTERS,
          `Pasted text may hold at most ${MAX_PASTED_CHARACTERS.toLocaleString('en-US')} characters; upload longer documents as a file`,
        ),
    ),
  documentType: DocumentType.default('contract'),
  appId: AppId.optional().describe('The app to file it under; absent = organisation-wide'),
})

/** Upload limit of a document's original file: 25 MB (issue 2). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024

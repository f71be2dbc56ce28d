/**
 * Documents: the firm's library. Plain functions over a tenant transaction; HTTP lives in
 * routes.ts. Creating and deleting documents (row, audit, event, file, indexing) is
 * server/documents/document-writes.ts, shared with voice and tenant import.
 */
import { and, eq, ilike, or, sql, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { documentCounts, documents } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { jsonTextPage } from '../../lists/json-text-page'
import { notFound } from '../../errors/app-error'
import { assertMayChangeDocument, type DocumentDeps } from '../../documents/document-writes'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { assertOrgKey } from '../../blob/blob-keys'
import { storedWeActFor } from '../../ai/analyzer/we-act-for'

export const NO_TEXT_MESSAGE = 'No text found (scanned PDF?)'
const NO_TEXT_AFTER_OCR_MESSAGE = 'No text found, even when reading the page images (OCR).'
const OCR_MESSAGE =
  'Text recognised from the page images (OCR): it may hold recognition errors; check quotes against the page.'

/** What the API says of a document's text, by its status. */
function textStatusMessage(row: DocumentRow): string | null {
  if (row.textStatus === 'ocr') return OCR_MESSAGE
  if (row.textStatus !== 'empty') return null
  return row.pageStarts ? NO_TEXT_AFTER_OCR_MESSAGE : NO_TEXT_MESSAGE
}

type DocumentRow = typeof documents.$inferSelect

/** The API shape of a document (no storage key). */
export function toDocument(row: DocumentRow) {
  return {
    id: row.id,
    appId: row.appId,
    title: row.title,
    content: row.content,
    documentType: row.documentType,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    fileName: row.fileName,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    textStatus: row.textStatus as 'ok' | 'empty' | 'ocr',
    textStatusMessage: textStatusMessage(row),
    pageStarts: row.pageStarts,
    weActFor: storedWeActFor(row.weActFor),
  }
}

/** Escapes LIKE wildcards so user search text matches literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The org's distinct document types, sorted, as one scalar subquery over the counters. */
const orgTypes = sql<string[]>`(
  select coalesce(array_agg(t.document_type order by t.document_type), '{}'::text[])
  from (select distinct ${documentCounts.documentType} from ${documentCounts}
        where ${documentCounts.documents} > 0) as t)`

/** The number of documents of one type and/or app (or all), summed from the counters. */
function countedTotal(filter: { type?: SQLWrapper | string; appId?: SQLWrapper | string }) {
  const where = and(
    filter.type !== undefined ? eq(documentCounts.documentType, filter.type) : undefined,
    filter.appId !== undefined ? eq(documentCounts.appId, filter.appId) : undefined,
  )
  return sql<number>`(select coalesce(sum(${documentCounts.documents}), 0)::int
    from ${documentCounts} ${where ? sql`where ${where}` : sql``})`.mapWith(Number)
}

/** What a listing asks for: search text, type, app, ids and window (listDocuments). */
export interface DocumentListFilter {
  q?: string
  type?: string
  appId?: string
  /** Only these documents (validated UUIDs, DocumentListQuery's `ids`). */
  ids?: readonly string[]
  limit: number
  offset: number
}

/**
 * The library: the organisation's documents newest first, filtered by case-insensitive `q` on
 * title or content, exact `type` (`all` = any), `appId` (absent = every document of the
 * organisation, decision 8) and `ids` (those of them the principal reaches: RLS as always). Its page is `{ items, total, types }` (DocumentPage): the total
 * matching and all distinct types of the organisation. On the list kit's fast path (decision
 * 0135), kept by the A/B of bench/reports/list-kit-ab-2026-12-07.md.
 *
 * One statement in the usual case (decision 7): the page walks the index `(org_id, created_at
 * desc, id desc)` (or its app twin) and stops after `limit` rows, reading the stored preview
 * column, never the (compressed) text. Total and types come from the trigger-kept
 * `document_counts`, so they cost no scan of the documents; only a search `q`, which must read
 * every document anyway, and `ids` (at most MAX_LISTED_IDS rows by the primary key) count their
 * matches.
 */
export const documentList = jsonTextPage({
  table: documents,
  fields: {
    id: documents.id,
    appId: documents.appId,
    title: documents.title,
    documentType: documents.documentType,
    preview: documents.preview,
    createdAt: documents.createdAt,
    textStatus: documents.textStatus,
  },
  newestFirst: ['createdAt', 'id'],
  filters: {
    pattern: (pattern) => or(ilike(documents.title, pattern), ilike(documents.content, pattern)),
    type: (type) => eq(documents.documentType, type),
    appId: (appId) => eq(documents.appId, appId),
    // One text parameter (the kit's values are never arrays), read by the primary key.
    ids: (ids) => sql`${documents.id} = any(string_to_array(${ids}, ',')::uuid[])`,
  },
  values: (query: DocumentListFilter) => {
    const q = query.q?.trim()
    return {
      pattern: q ? likePattern(q) : undefined,
      type: query.type && query.type !== 'all' ? query.type : undefined,
      appId: query.appId || undefined,
      ids: query.ids?.join(','),
    }
  },
  total: (filter) =>
    filter.pattern !== undefined || filter.ids !== undefined
      ? 'matches'
      : countedTotal({ type: filter.type, appId: filter.appId }),
  also: { types: orgTypes },
})

/** The library's page as an object (for the assistant's tools): documentList's page. */
export async function listDocuments(
  db: Db,
  principal: Principal,
  query: DocumentListFilter,
): Promise<DocumentPage> {
  return JSON.parse(await documentList.read(db, principal, query)) as DocumentPage
}

/** A page of the library (DocumentPage of schemas.ts). */
interface DocumentPage {
  items: {
    id: string
    appId: string | null
    title: string
    documentType: string
    preview: string
    createdAt: string
    textStatus: 'ok' | 'empty' | 'ocr'
  }[]
  total: number
  types: string[]
}

/** Reads one document of the org, or throws a 404 problem (also for other orgs' ids). */
export async function getDocument(db: Db, principal: Principal, id: string) {
  const row = await withTenant(db, principal, async (tx) => {
    const [found] = await tx.select().from(documents).where(eq(documents.id, id)).limit(1)
    return found
  })
  if (!row) throw notFound('Document')
  return row
}

/**
 * Where the original upload of a document is stored (`key`, checked to be the organisation's) and
 * its file name and media type; a 404 problem when the document is not the org's or was pasted text.
 */
export async function getDocumentFile(deps: DocumentDeps, principal: Principal, id: string) {
  const row = await getDocument(deps.db, principal, id)
  if (!row.fileKey) throw notFound('File')
  assertOrgKey(principal.orgId, row.fileKey, 'documents')
  // The type extraction told from the bytes; the store's was guessed from the first 4,100 only.
  return {
    key: row.fileKey,
    fileName: row.fileName ?? 'document',
    contentType: row.mimeType ?? undefined,
  }
}

/**
 * Locks document `id` for a write in `tx` and returns its title, creator and "we act for" choice
 * (raw), or undefined when it is not the org's. Throws a 403 problem (`not_document_creator`)
 * when a member would `verb` a document someone else added.
 */
export async function lockChangeableDocument(
  tx: Tx,
  principal: Principal,
  id: string,
  verb: 'rename' | 'change',
) {
  const [found] = await tx
    .select({
      title: documents.title,
      createdBy: documents.createdBy,
      weActFor: documents.weActFor,
    })
    .from(documents)
    .where(eq(documents.id, id))
    .for('update')
  if (found) assertMayChangeDocument(principal, found.createdBy, verb)
  return found
}

/**
 * Gives document `id` the title `title` (already cleaned by DocumentTitle), with an audit entry
 * ('document.rename', old and new title) and an event ('document.renamed'). Members rename only
 * the documents they added, admins and owners any. Throws a 404 problem for a document that is
 * not the org's, a 403 problem (`not_document_creator`) for a member renaming someone else's.
 * Returns the updated row.
 */
export async function renameDocument(db: Db, principal: Principal, id: string, title: string) {
  const row = await withTenant(db, principal, async (tx) => {
    const found = await lockChangeableDocument(tx, principal, id, 'rename')
    if (!found) return undefined
    const [updated] = await tx
      .update(documents)
      .set({ title })
      .where(eq(documents.id, id))
      .returning()
    if (!updated) return undefined
    await recordAudit(
      tx,
      principal,
      'document.rename',
      { type: 'document', id },
      { from: found.title, to: title },
    )
    await recordEvent(tx, principal, 'document.renamed', { documentId: id, title }, updated.appId)
    return updated
  })
  if (!row) throw notFound('Document')
  return row
}

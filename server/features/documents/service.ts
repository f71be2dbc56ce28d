/**
 * Documents: the firm's library. Plain functions over a tenant transaction; HTTP lives in
 * routes.ts. Creating and deleting documents (row, audit, event, file, indexing) is
 * server/documents/document-writes.ts, shared with voice and tenant import.
 */
import { and, eq, ilike, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { documentCounts, documents } from '../../db/schema'
import { statementTemplate, type StatementTemplate } from '../../db/statement-template'
import { readRendered, withTenant, withTenantReads, type Principal, type Tx } from '../../db/tenant'
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
function countedTotal(filter: { type?: SQLWrapper; appId?: SQLWrapper }) {
  const where = and(
    filter.type ? eq(documentCounts.documentType, filter.type) : undefined,
    filter.appId ? eq(documentCounts.appId, filter.appId) : undefined,
  )
  return sql<number>`(select coalesce(sum(${documentCounts.documents}), 0)::int
    from ${documentCounts} ${where ? sql`where ${where}` : sql``})`.mapWith(Number)
}

/** The number of the organisation's documents matching `where`. */
async function countMatches(tx: Tx, where: SQL | undefined): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(documents)
    .where(where)
  return row?.total ?? 0
}

/** What a listing asks for: search text, type, app and window (listDocuments). */
export interface DocumentListFilter {
  q?: string
  type?: string
  appId?: string
  limit: number
  offset: number
}

/** Which filters a listing has: its statement's text depends on these alone. */
interface ListKind {
  search: boolean
  type: boolean
  appId: boolean
}

/** A listing's values by name: `pattern` (the search's LIKE pattern), `type`, `appId`. */
type ListValue = (name: 'pattern' | 'type' | 'appId') => string | SQLWrapper

/** The filter of a listing of `kind` without the organisation (RLS confines it). */
function listFilter(kind: ListKind, value: ListValue) {
  return and(
    kind.search
      ? or(ilike(documents.title, value('pattern')), ilike(documents.content, value('pattern')))
      : undefined,
    kind.type ? eq(documents.documentType, value('type')) : undefined,
    kind.appId ? eq(documents.appId, value('appId')) : undefined,
  )
}

/** The statement of a listing of `kind`, with placeholders for its values and window. */
function listStatement(kind: ListKind) {
  const where = listFilter(kind, (name) => sql.placeholder(name))
  // The page is one JSON text built by PostgreSQL (each item a row as JSON, its columns named as
  // the API's fields): on embedded PGlite, reading 50 rows of nine fields through its JavaScript
  // protocol reader and copying them across threads cost more than the query itself (decision 32).
  return sql`with page as (
      select ${documents.id} as id, ${documents.appId} as "appId", ${documents.title} as title,
        ${documents.documentType} as "documentType", ${documents.preview} as preview,
        ${documents.createdAt} at time zone 'UTC' as "createdAt",
        ${documents.textStatus} as "textStatus",
        ${kind.search ? sql`count(*) over ()` : sql`null`} as matches
      from ${documents} ${where ? sql`where ${where}` : sql``}
      order by ${documents.createdAt} desc, ${documents.id} desc
      limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')})
    select json_build_object(
      'items', coalesce((select json_agg(item order by item."createdAt" desc, item.id desc)
        from (select id, "appId", title, "documentType", preview, "createdAt", "textStatus"
              from page) as item), '[]'),
      'total', ${
        kind.search
          ? sql`(select matches from page limit 1)`
          : countedTotal({
              type: kind.type ? sql.placeholder('type') : undefined,
              appId: kind.appId ? sql.placeholder('appId') : undefined,
            })
      },
      'types', ${orgTypes})::text as page`
}

/** listStatement of each kind, rendered once (statementTemplate, decision 0093). */
const listTemplates = new Map<string, StatementTemplate>()

/**
 * The one statement of a listing (listDocuments): a page of the organisation's documents as one
 * JSON text, with whether it is a search and, for a search, `where`, its filter without the
 * organisation (RLS confines it), for the count of its matches. Exported for the server bench,
 * whose bare PostgreSQL client runs the very statement the instance sends (bench/server.ts).
 */
export function documentListStatement(query: DocumentListFilter) {
  const q = query.q?.trim()
  const type = query.type && query.type !== 'all' ? query.type : undefined
  const kind = { search: Boolean(q), type: Boolean(type), appId: Boolean(query.appId) }
  const key = `${kind.search}/${kind.type}/${kind.appId}`
  let fill = listTemplates.get(key)
  if (!fill) {
    fill = statementTemplate(listStatement(kind))
    listTemplates.set(key, fill)
  }
  const values = {
    pattern: q ? likePattern(q) : '',
    type: type ?? '',
    appId: query.appId ?? '',
    limit: query.limit,
    offset: query.offset,
  }
  return {
    /** The statement as Drizzle's `sql`, built when asked for (the bench's, PGlite's). */
    get statement() {
      return fill(values)
    },
    /** The same statement as its text rendered once and its values (readRendered). */
    rendered: { sql: fill.text, params: fill.params(values) },
    where: q ? listFilter(kind, (name) => values[name]) : undefined,
    search: Boolean(q),
  }
}

/**
 * Lists the org's documents newest first, filtered by case-insensitive `q` on title or content,
 * exact `type` and `appId` (absent = every document of the organisation, decision 8). Returns
 * the page, the total matching, and all distinct types of the org, as the API's JSON text of a
 * DocumentPage (the list route's response body, decision 0093): PostgreSQL builds it, and only
 * its times are put in the API's form here, without parsing the page and serializing it again.
 *
 * One statement in the usual case (decision 7): the page walks the index `(org_id, created_at
 * desc, id desc)` (or its app twin) and stops after `limit` rows, reading the stored preview
 * column, never the (compressed) text. Total and types come from the trigger-kept
 * `document_counts`, so they cost no scan of the documents; only a search `q`, which must read
 * every document anyway, counts its matches (a window count); an offset past its last match
 * takes a second statement for the count.
 *
 * The one list kept off the list kit's Drizzle read and Fastify's serializer (decision 0123):
 * through the kit, one instance listed 0.40 as fast against PostgreSQL's own limit in the A/B of
 * bench/reports/list-kit-ab-2026-12-07.md.
 */
export function listDocumentsJson(
  db: Db,
  principal: Principal,
  query: DocumentListFilter,
): Promise<string> {
  const listing = documentListStatement(query)
  const { where, search } = listing
  // A page walking the index plans the same for every value: plan it once (not a search's).
  const page = withTenantReads(
    db,
    principal,
    (tx) => [readRendered(tx, listing.rendered, () => listing.statement)],
    { reusePlans: !search },
  ).then(([result]) => {
    const [row] = (result as unknown as { rows: { page: string }[] }).rows
    return withApiTimes(row?.page ?? '{}')
  })
  // Not an async function: a listing awaits its one read, not a wrapper too (decision 0098).
  return search ? page.then((text) => withSearchTotal(db, principal, text, where)) : page
}

/**
 * A search's page `text` as is when its total rode on its rows; else (an offset past the last
 * match) with the total counted by a statement of its own, the matches of `where`.
 */
async function withSearchTotal(
  db: Db,
  principal: Principal,
  text: string,
  where: SQL | undefined,
): Promise<string> {
  const page = JSON.parse(text) as DocumentPage
  if (page.total !== null) return text
  page.total = await withTenant(db, principal, (tx) => countMatches(tx, where))
  return JSON.stringify(page)
}

/** What opens a page item's time in PostgreSQL's JSON text (json_agg of a row: no spaces). */
const CREATED_AT = '"createdAt":"'

/**
 * `page`, PostgreSQL's JSON text of a page, with each item's `createdAt` in the API's form
 * (utcIso). Only a key can match CREATED_AT: inside a JSON string every quote is escaped, so a
 * title holding `"createdAt":"` appears as `\"createdAt\":\"`. A scan with indexOf: about
 * 18 µs of CPU a page of 50 on the loaded 2-core machine, against 29 µs for a regular expression
 * with a replacer and 74 µs for JSON.parse with the times set on the objects (decision 0093).
 */
export function withApiTimes(page: string): string {
  let out = ''
  let done = 0
  for (let at = page.indexOf(CREATED_AT); at !== -1; at = page.indexOf(CREATED_AT, done)) {
    const start = at + CREATED_AT.length
    const end = page.indexOf('"', start)
    out += page.slice(done, start) + utcIso(page.slice(start, end))
    done = end
  }
  return out + page.slice(done)
}

/** listDocumentsJson's page as an object (for the assistant's tools). */
export async function listDocuments(
  db: Db,
  principal: Principal,
  query: DocumentListFilter,
): Promise<DocumentPage> {
  return JSON.parse(await listDocumentsJson(db, principal, query)) as DocumentPage
}

/**
 * A UTC timestamp as PostgreSQL writes it into JSON ("2026-11-24T13:06:23.123456", ISO 8601 with
 * zero to six decimals) in the API's form ("2026-11-24T13:06:23.123Z", milliseconds truncated as
 * `Date` truncates them). Cheaper than `to_char` on the database or `Date` parsing here.
 */
export function utcIso(timestamp: string): string {
  const dot = timestamp.indexOf('.')
  if (dot === -1) return `${timestamp}.000Z`
  return `${timestamp.slice(0, dot + 4).padEnd(dot + 4, '0')}Z`
}

/** A page of the library (`total` null only inside listDocumentsJson, before its count). */
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

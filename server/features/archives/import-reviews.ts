/**
 * What an organisation import does to reviews beyond remapping their ids (issue 44, decision
 * 0143). The generic importer (import-archive.ts) gives every review, column, row and cell a new
 * id, remaps their app, review, row, column and document ids to the archive's own rows, and drops
 * a row (with its cells) whose document the archive does not hold. Here, on each mapped row:
 *
 * - a cell's id is the md5 of its new row's and column's ids, as the fill writes it (cellIdSql in
 *   features/reviews/service.ts; a listed unwritten cell has that id, so ids never change);
 * - a cell left `running` by the source comes back `pending` (its fill is not here);
 * - the person of a lawyer's override (`override.by`) is resolved as the archive's people columns
 *   are: this server's user in a clone, else null (decision 0103);
 * - an app-wide review whose app did not come along becomes a selection;
 * - counts are bounded: at most MAX_ARCHIVE_REVIEW_COLUMNS columns and MAX_ARCHIVE_REVIEW_ROWS rows
 *   a review, MAX_CELL_CITATIONS citations a cell (each `{ start, end, text }`, 0 ≤ start < end).
 *
 * and on each batch, against the rows staged before it (checkReviewBatch, one read): a column,
 * row or cell of another review's app, a row of an app's review holding a document of another app,
 * a cell whose row, column, document or positions are not its own, or a citation ending past its
 * document's text is refused (422 `archive_invalid` naming the line; the caller sweeps the staging
 * organisation, so nothing is half-written). An answered cell whose citation is within the text
 * but not its slice (a document whose text changed after the fill) comes back `unverified`, as the
 * fill marks one, never shown as an answer.
 */
import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { documents } from '../../db/schema'
import { withTenantReads } from '../../db/tenant'
import { citationsCheck, type CitedSpan } from '../../documents/citation-check'

/** Most columns of one imported review: MAX_REVIEW_COLUMNS of features/reviews/schemas.ts. */
export const MAX_ARCHIVE_REVIEW_COLUMNS = 50
/** Most rows of one imported review: MAX_REVIEW_ROWS of features/reviews/schemas.ts. */
export const MAX_ARCHIVE_REVIEW_ROWS = 10_000
/**
 * Most citations of one imported cell. The fill writes at most 3 (a clause preset's best
 * findings, decision 0137) and a deal-sheet line its quotes; 20 leaves room and bounds the check.
 */
export const MAX_CELL_CITATIONS = 20

/** The review tables, in archive order. */
export const REVIEW_TABLES = new Set(['reviews', 'review_columns', 'review_rows', 'review_cells'])

/** The reason an imported cell whose citation is not its document's slice is unverified with. */
export const UNCHECKED_CITATION =
  'Imported: a citation is not the document’s text (the text changed after it was answered)'

/**
 * The id a cell of row `rowId` and column `columnId` is written with (a UUID): the md5 of
 * `rowId/columnId`, version nibble 4 and variant nibble 8, as cellIdSql computes it in SQL.
 */
export function reviewCellId(rowId: string, columnId: string): string {
  const hex = createHash('md5').update(`${rowId}/${columnId}`).digest('hex').split('')
  hex[12] = '4'
  hex[16] = '8'
  const h = hex.join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** PostgreSQL's `integer` (positions, and the offsets the checks read): 0 to 2³¹ − 1. */
const isIndex = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 2_147_483_647

/** Why a cell's citations are refused (not a bounded list of `{ start, end, text }`), or null. */
function badCitations(citations: unknown): string | null {
  if (!Array.isArray(citations)) return '"citations" is not a list.'
  if (citations.length > MAX_CELL_CITATIONS)
    return `more than ${MAX_CELL_CITATIONS} citations in one cell.`
  for (const c of citations)
    if (
      !isObject(c) ||
      !isIndex(c.start) ||
      !isIndex(c.end) ||
      typeof c.text !== 'string' ||
      c.start >= c.end
    )
      return 'a citation is not { start, end, text } with 0 ≤ start < end < 2³¹.'
  return null
}

/**
 * The review rows of one import: counts per review (bounded by the number of reviews, not of
 * rows) and the per-row rules of the module comment.
 */
export class ImportedReviews {
  private readonly columns = new Map<string, number>()
  private readonly rows = new Map<string, number>()
  /** The imported reviews' new ids (the publication queues their fills). */
  readonly reviewIds: string[] = []

  /**
   * Applies the per-row rules to `out` (a row of `table` with new ids; `row` is the archive's);
   * resolves a person with `person` (an archive user id → this server's, or null). Returns why the
   * row is refused, or null. `rekey` records a cell's id in place of the random one it was given.
   */
  apply(
    table: string,
    row: Record<string, unknown>,
    out: Record<string, unknown>,
    person: (archiveUserId: unknown) => string | null,
    rekey: (archiveId: string, fresh: string) => void,
  ): string | null {
    if (table === 'reviews') {
      if (out.row_source === 'app' && out.app_id === null) out.row_source = 'selection'
      this.reviewIds.push(out.id as string)
      return null
    }
    const review = out.review_id as string
    if (table === 'review_columns' || table === 'review_rows') {
      const counts = table === 'review_columns' ? this.columns : this.rows
      const most = table === 'review_columns' ? MAX_ARCHIVE_REVIEW_COLUMNS : MAX_ARCHIVE_REVIEW_ROWS
      const n = (counts.get(review) ?? 0) + 1
      counts.set(review, n)
      if (n > most)
        return `its review has more than ${most} ${table === 'review_columns' ? 'columns' : 'rows'}.`
      if (!isIndex(out.position)) return '"position" is not an integer from 0 to 2³¹ − 1.'
      return null
    }
    if (table !== 'review_cells') return null
    if (!isIndex(out.row_position) || !isIndex(out.column_position))
      return '"row_position" and "column_position" must be integers from 0 to 2³¹ − 1.'
    const bad = badCitations(out.citations ?? [])
    if (bad) return bad
    if (out.override !== null && out.override !== undefined) {
      if (!isObject(out.override) || !isObject(row.override)) return '"override" is not an object.'
      out.override = { ...out.override, by: person(row.override.by) }
    }
    if (out.state === 'running') out.state = 'pending'
    if (out.state === 'answered' && (!Array.isArray(out.citations) || out.citations.length === 0)) {
      out.state = 'unverified'
      out.reason = UNCHECKED_CITATION
    }
    const fresh = reviewCellId(out.row_id as string, out.column_id as string)
    rekey(String(row.id), fresh)
    out.id = fresh
    return null
  }
}

/** A batch's rows with their archive line numbers. */
type Batch = readonly { line: number; row: Record<string, unknown> }[]

/**
 * Checks a batch of `table` (a review table) against the rows staged before it in `orgId` (the
 * staging organisation), in one read; returns the first refused line and why, or null. Answered
 * cells a citation of which is not its document's slice are marked unverified in `batch` itself
 * (markUnchecked, one read a document).
 */
export async function checkReviewBatch(
  db: Db,
  orgId: string,
  table: string,
  batch: Batch,
): Promise<{ line: number; why: string } | null> {
  if (table === 'reviews' || batch.length === 0) return null
  const rows = JSON.stringify(batch.map((b) => b.row))
  const query = BATCH_CHECKS[table]
  if (!query) return null
  // One message to the database thread (PGlite) or one round trip (PostgreSQL), decision 0089.
  const [result] = await withTenantReads(db, { orgId }, (tx) => [tx.execute(query(rows))] as const)
  const found = result as unknown as { rows: { ord: number; refused: string | null }[] }
  for (const r of found.rows) {
    if (r.refused) return { line: batch[r.ord - 1]!.line, why: r.refused }
  }
  if (table === 'review_cells') await markUnchecked(db, orgId, batch)
  return null
}

/**
 * Marks unverified, in `batch` itself, each answered cell a citation of which is not its
 * document's slice (citationsCheck, in JavaScript's offsets): the batch's documents are read one
 * at a time (at most IMPORT_BATCH, each once), so memory holds one document's text.
 */
async function markUnchecked(db: Db, orgId: string, batch: Batch): Promise<void> {
  const byDocument = new Map<string, Record<string, unknown>[]>()
  for (const { row } of batch) {
    if (row.state !== 'answered') continue
    const id = String(row.document_id)
    byDocument.set(id, [...(byDocument.get(id) ?? []), row])
  }
  for (const [id, cells] of byDocument) {
    const [document] = await withTenantReads(db, { orgId }, (tx) => [
      tx.select({ content: documents.content }).from(documents).where(eq(documents.id, id)),
    ])
    const content = document[0]?.content ?? ''
    for (const cell of cells)
      if (!citationsCheck(content, cell.citations as CitedSpan[])) {
        cell.state = 'unverified'
        cell.reason = UNCHECKED_CITATION
      }
  }
}

/** Each batch's rows as `b(x, ord)`. */
const batchRows = (rows: string) =>
  sql`jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS b(x, ord)`

/** Per table, the query answering `ord` and `refused` (a reason, or null). */
const BATCH_CHECKS: Record<string, (rows: string) => ReturnType<typeof sql>> = {
  review_columns: (rows) => sql`
    SELECT b.ord::int AS ord,
      CASE WHEN v.id IS NULL THEN 'its review is not in the archive.'
           WHEN v.app_id IS DISTINCT FROM (b.x->>'app_id')::uuid THEN 'its app is not its review''s.'
      END AS refused
    FROM ${batchRows(rows)} LEFT JOIN reviews v ON v.id = (b.x->>'review_id')::uuid
    ORDER BY b.ord`,
  review_rows: (rows) => sql`
    SELECT b.ord::int AS ord,
      CASE WHEN v.id IS NULL OR d.id IS NULL THEN 'its review or document is not in the archive.'
           WHEN v.app_id IS DISTINCT FROM (b.x->>'app_id')::uuid THEN 'its app is not its review''s.'
           WHEN v.app_id IS NOT NULL AND d.app_id IS DISTINCT FROM v.app_id
             THEN 'its review is an app''s and its document is not of that app.'
      END AS refused
    FROM ${batchRows(rows)}
    LEFT JOIN reviews v ON v.id = (b.x->>'review_id')::uuid
    LEFT JOIN documents d ON d.id = (b.x->>'document_id')::uuid
    ORDER BY b.ord`,
  review_cells: (rows) => sql`
    SELECT b.ord::int AS ord,
      CASE WHEN r.id IS NULL OR c.id IS NULL OR r.review_id <> (b.x->>'review_id')::uuid
                OR c.review_id <> (b.x->>'review_id')::uuid
             THEN 'its row and column are not of its review.'
           WHEN d.id IS NULL OR r.document_id <> d.id THEN 'its document is not its row''s.'
           WHEN r.app_id IS DISTINCT FROM (b.x->>'app_id')::uuid THEN 'its app is not its review''s.'
           WHEN r.position <> (b.x->>'row_position')::int
                OR c.position <> (b.x->>'column_position')::int
             THEN 'its positions are not its row''s and column''s.'
           -- A JavaScript offset (UTF-16) never passes the text's UTF-8 bytes; whether a citation
           -- is the text's slice is checked in JavaScript (markUnchecked).
           WHEN EXISTS (SELECT FROM jsonb_array_elements(coalesce(b.x->'citations', '[]')) e
                         WHERE (e->>'end')::bigint > octet_length(d.content))
             THEN 'a citation lies outside its document''s text.'
      END AS refused
    FROM ${batchRows(rows)}
    LEFT JOIN review_rows r ON r.id = (b.x->>'row_id')::uuid
    LEFT JOIN review_columns c ON c.id = (b.x->>'column_id')::uuid
    LEFT JOIN documents d ON d.id = (b.x->>'document_id')::uuid
    ORDER BY b.ord`,
}

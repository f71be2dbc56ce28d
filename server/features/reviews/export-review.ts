/**
 * A review's grid as a file (issue 44, decision 0137): one line per document, in row order, each
 * column's shown answer (the lawyer's override, else the answer of an answered cell, else the
 * cell's state) and its citations. The rows are read in batches of EXPORT_BATCH by position, each
 * batch in its own short tenant transaction, so memory stays flat and no transaction is held while
 * the client reads. CSV here (formula-safe records of server/http/csv-line.ts); XLSX in
 * export-review-xlsx.ts over the same batches.
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { documents, reviewCells, reviewRows } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { csvLine } from '../../http/csv-line'
import { answerAsText, storedCell, type ReviewAnswer, type ReviewCitation } from './review-answer'
import type { CellState } from './schemas'

/** Rows (documents) read per batch. */
export const EXPORT_BATCH = 200

/** A column as an export writes it. */
export interface ExportColumn {
  id: string
  label: string
}

/** One exported cell: its shown value (typed) and what backs it. */
export interface ExportCell {
  state: CellState
  reason: string | null
  /** The override's answer when there is one, else the answer of an answered cell. */
  shown: ReviewAnswer | null
  overridden: boolean
  verified: boolean
  citations: ReviewCitation[]
}

/** A cell the fill has not written yet (the create writes none): pending. */
export const UNWRITTEN_CELL: ExportCell = {
  state: 'pending',
  reason: null,
  shown: null,
  overridden: false,
  verified: false,
  citations: [],
}

/** One exported row: its document and its written cells by column id (else UNWRITTEN_CELL). */
export interface ExportRow {
  position: number
  documentId: string
  title: string
  /** Where each page's text starts in a scan read by OCR (documents.page_starts), else null. */
  pageStarts: number[] | null
  cells: Map<string, ExportCell>
}

/**
 * The 1-based page of `row`'s text that holds character `offset` (the last page starting at or
 * before it), or null when the document has no pages recorded (a text layer or pasted text).
 */
export function pageOf(row: Pick<ExportRow, 'pageStarts'>, offset: number): number | null {
  if (!row.pageStarts?.length) return null
  return Math.max(1, row.pageStarts.findLastIndex((start) => start <= offset) + 1)
}

/**
 * The review's rows with their cells, in batches of EXPORT_BATCH rows (position order). The
 * review must be the principal's (the caller read it first); stops early when the consumer stops.
 */
export async function* reviewExportRows(
  db: Db,
  principal: Principal,
  reviewId: string,
): AsyncGenerator<ExportRow[]> {
  let after = -1
  for (;;) {
    const from = after
    const batch = await withTenant(db, principal, async (tx) => {
      const rows = await tx
        .select({
          id: reviewRows.id,
          position: reviewRows.position,
          documentId: reviewRows.documentId,
          title: documents.title,
          pageStarts: documents.pageStarts,
        })
        .from(reviewRows)
        .innerJoin(documents, eq(documents.id, reviewRows.documentId))
        .where(and(eq(reviewRows.reviewId, reviewId), gt(reviewRows.position, from)))
        .orderBy(asc(reviewRows.position))
        .limit(EXPORT_BATCH)
      if (rows.length === 0) return []
      const cells = await tx
        .select()
        .from(reviewCells)
        .where(
          and(
            eq(reviewCells.reviewId, reviewId),
            inArray(
              reviewCells.rowId,
              rows.map((r) => r.id),
            ),
          ),
        )
      return rows.map((row) => ({
        position: row.position,
        documentId: row.documentId,
        title: row.title,
        pageStarts: row.pageStarts,
        cells: new Map(
          cells
            .filter((cell) => cell.rowId === row.id)
            .map((cell) => [cell.columnId, toExportCell(cell)] as const),
        ),
      }))
    })
    if (batch.length === 0) return
    yield batch
    after = batch[batch.length - 1]!.position
  }
}

function toExportCell(cell: typeof reviewCells.$inferSelect): ExportCell {
  const stored = storedCell(cell)
  const state = stored.state as CellState
  const { override } = stored
  const answered = state === 'answered'
  return {
    state,
    reason: stored.reason,
    shown: override ? override.answer : stored.answer,
    overridden: override !== null,
    verified: cell.verified,
    citations: answered ? (cell.citations as ReviewCitation[]) : [],
  }
}

const STATE_TEXT: Record<CellState, string> = {
  pending: 'Pending',
  running: 'Pending',
  answered: '',
  not_found: 'Not found',
  failed: 'Failed',
  unverified: 'Unverified',
}

/** What a cell shows in a file: its answer as text, or its state ("Not found", "Failed"…). */
export function shownText(cell: ExportCell | undefined): string {
  if (!cell) return ''
  if (cell.shown) return answerAsText(cell.shown)
  if (cell.overridden) return 'Not found'
  return STATE_TEXT[cell.state]
}

/** A cell's citations as text: each quote with its offsets. */
export function citationsText(cell: ExportCell | undefined): string {
  return (cell?.citations ?? [])
    .map((c) => `[${c.start}–${c.end}] “${c.text.replace(/\s+/g, ' ').trim()}”`)
    .join('\n')
}

/**
 * The grid as CSV text chunks: a header (document id, title, then per column its label and
 * "<label> (citations)"), then one record per document; values formula-neutralised.
 */
export async function* exportReviewCsv(
  db: Db,
  principal: Principal,
  reviewId: string,
  columns: readonly ExportColumn[],
): AsyncGenerator<string> {
  yield csvLine([
    'document_id',
    'document',
    ...columns.flatMap((c) => [c.label, `${c.label} (citations)`]),
  ])
  for await (const rows of reviewExportRows(db, principal, reviewId)) {
    yield rows
      .map((row) =>
        csvLine([
          row.documentId,
          row.title,
          ...columns.flatMap((c) => {
            const cell = row.cells.get(c.id) ?? UNWRITTEN_CELL
            return [shownText(cell), citationsText(cell)]
          }),
        ]),
      )
      .join('')
  }
}

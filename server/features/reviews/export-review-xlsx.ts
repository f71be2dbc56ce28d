/**
 * A review's grid as an XLSX workbook, streamed (exceljs' WorkbookWriter, decision 0137): the
 * sheet "Review" holds one row per document with typed cells (dates as dates, periods in months
 * and amounts as numbers, Yes/No, names and items joined) and each answer's citations as the
 * cell's note, with their page (a scan read by OCR), offsets and quotes cut at 200 characters; the
 * sheet "Citations" lists every citation (document, column, page, start, end, whole quote). Each sheet is a pass over the rows in batches (export-review.ts), so a
 * finished sheet is written out before the next starts and memory stays flat. Values are string
 * or number cells, never formulas, so a quote starting with "=" stays text.
 */
import type { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import type { Db } from '../../db/client'
import type { Principal } from '../../db/tenant'
import { clipText } from '../../search/char-boundary'
import {
  pageOf,
  reviewExportRows,
  shownText,
  type ExportRow,
  UNWRITTEN_CELL,
  type ExportCell,
  type ExportColumn,
} from './export-review'

/** Longest note written on a cell (a spreadsheet shows notes in a small box). */
const MAX_NOTE = 2000
/**
 * Longest quote a note holds (the "Citations" sheet holds it whole): exceljs keeps every note of
 * a sheet in memory until the sheet is written, 187 MiB for 8,000 rows × 10 notes of 1,000
 * characters (decision 0137).
 */
const NOTE_QUOTE = 200

/**
 * A citation as a note line: its page when the document is a scan read by OCR, its offsets and its
 * quote, cut at NOTE_QUOTE between characters.
 */
function noteLine(c: { start: number; end: number; text: string }, page: number | null): string {
  const quote = c.text.replace(/\s+/g, ' ').trim()
  const cut = clipText(quote, NOTE_QUOTE)
  const where = `${page === null ? '' : `p. ${page}, `}${c.start}–${c.end}`
  return `[${where}] “${cut}${cut.length < quote.length ? '…' : ''}”`
}

/** The value written for a cell: typed for an answer, its state's words otherwise. */
function cellValue(cell: ExportCell | undefined): string | number | Date {
  const shown = cell?.shown
  if (!shown) return shownText(cell)
  switch (shown.type) {
    case 'date':
      return new Date(`${shown.value}T00:00:00Z`)
    case 'duration':
      return shown.months
    case 'money':
      return shown.amount
    default:
      return shownText(cell)
  }
}

/**
 * The note of a cell: its unit where the number needs one, then its citations with their offsets
 * and quotes cut short (noteLine).
 */
function cellNote(cell: ExportCell | undefined, row: ExportRow): string | undefined {
  const shown = cell?.shown
  const unit =
    shown?.type === 'money'
      ? `Currency: ${shown.currency}`
      : shown?.type === 'duration'
        ? `Months (${shown.text})`
        : ''
  const citations = (cell?.citations ?? []).map((c) => noteLine(c, pageOf(row, c.start))).join('\n')
  const note = [unit, cell?.overridden ? 'Overridden by a lawyer' : '', citations]
    .filter(Boolean)
    .join('\n')
  return note ? clipText(note, MAX_NOTE) : undefined
}

/**
 * Writes review `reviewId`'s workbook to `out` (the review must be the principal's: the caller
 * read it and its `columns` first). Resolves when the workbook is complete; rejects (and the
 * caller destroys `out`) on a read or write failure, and with `signal`'s reason at the next batch
 * of rows once `signal` aborts (the reader went away).
 */
export async function writeReviewXlsx(
  db: Db,
  principal: Principal,
  reviewId: string,
  columns: readonly ExportColumn[],
  out: Writable,
  signal?: AbortSignal,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  })
  const grid = workbook.addWorksheet('Review')
  grid.columns = [
    { header: 'Document', key: 'document', width: 40 },
    ...columns.map((c) => ({ header: c.label, key: c.id, width: 30 })),
  ]
  for await (const rows of reviewExportRows(db, principal, reviewId)) {
    signal?.throwIfAborted()
    for (const row of rows) {
      const line = grid.addRow([
        row.title,
        ...columns.map((c) => cellValue(row.cells.get(c.id) ?? UNWRITTEN_CELL)),
      ])
      columns.forEach((c, i) => {
        const cell = row.cells.get(c.id) ?? UNWRITTEN_CELL
        const target = line.getCell(i + 2)
        const note = cellNote(cell, row)
        if (note) target.note = note
        if (cell?.shown?.type === 'date') target.numFmt = 'yyyy-mm-dd'
      })
      line.commit()
    }
  }
  grid.commit()
  const citations = workbook.addWorksheet('Citations')
  citations.columns = [
    { header: 'Document', key: 'document', width: 40 },
    { header: 'Column', key: 'column', width: 30 },
    { header: 'Page', key: 'page', width: 8 },
    { header: 'Start', key: 'start', width: 10 },
    { header: 'End', key: 'end', width: 10 },
    { header: 'Quote', key: 'quote', width: 100 },
  ]
  for await (const rows of reviewExportRows(db, principal, reviewId)) {
    signal?.throwIfAborted()
    for (const row of rows) {
      for (const column of columns) {
        for (const c of row.cells.get(column.id)?.citations ?? []) {
          citations
            .addRow([row.title, column.label, pageOf(row, c.start) ?? '', c.start, c.end, c.text])
            .commit()
        }
      }
    }
  }
  citations.commit()
  await workbook.commit()
}

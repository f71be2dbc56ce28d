/**
 * The handler of 'review-fill' jobs (contract: server/jobs/contracts/review-fill-job-contract.ts,
 * decision 0137). It answers a review's pending cells a document at a time:
 * 1. at its start, an app's review gains the app's new documents as rows, and cells left
 *    `running` by an interrupted run (no other fill of the review running) are pending again;
 * 2. it claims the first row (by position) with pending cells, or whose cells are not written yet
 *    (the create writes none: the fill writes a row's cells as it reaches it), marking them
 *    `running` in one short transaction (pending cells locked with SKIP LOCKED, and a row's
 *    cells written with ON CONFLICT DO NOTHING, so two fills never take the same document), and
 *    reads there the document, its columns and its latest stored full analysis; unwritten rows
 *    are searched from a cursor (the last one this run reached), not from the first row;
 * 3. it answers every claimed cell (answer-document.ts) with that analysis when it is of this very
 *    text, else the configured engine's reading now (not stored), outside any transaction; with
 *    an OpenAI-compatible analysis engine, the custom columns' cells are answered instead by one
 *    structured request for the document (read-custom-columns.ts, decision 0142);
 * 4. it writes the answers (one statement) in a second short transaction (answers the database
 *    refuses, a data exception, are written instead as failed cells with a reason, so one
 *    document cannot stop the fill nor every later one), announcing them on the
 *    organisation's realtime channel (`review_cells`, delivered at the commit), and reports
 *    done / total, kept by adding each document's cells to a count made at its start (made again
 *    every RECOUNT_MS and at the end), so no step grows with the review.
 * A cancel stops it between two steps and puts its claimed cells back to pending; a crash leaves
 * them running, and the next run (the runner's retry, or the next queued fill) resumes there.
 */
import { and, asc, desc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm'
import type { JobHandlerOf } from '../../jobs/define-job-contract'
import type { reviewFillJobContract } from '../../jobs/contracts/review-fill-job-contract'
import { ocrJobContract } from '../../jobs/contracts/ocr-job-contract'
import { jobPrincipal } from '../../jobs/job-runner'
import type { AppServices } from '../../services'
import type { Db } from '../../db/client'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import {
  analyses,
  documents,
  jobs,
  reviewCells,
  reviewColumns,
  reviewRows,
  reviews,
} from '../../db/schema'
import { AnalysisResult, type Analyzer } from '../../ai/analyzer/types'
import { isDataException } from '../../db/constraint-violation'
import { ORG_MESSAGES_CHANNEL } from '../../realtime/realtime-hub'
import type { RealtimeServerMessage } from '../../realtime/realtime-messages'
import type { ColumnReader } from '../../ai/analyzer/column-reader'
import { analysisOfText, answerDocument, type CellOutcome } from './answer-document'
import { readCustomColumns } from './read-custom-columns'
import { TEXT_BEING_READ } from '../../documents/app-review-fills'
import { addAppDocuments, addMissingCells, cellCounts } from './service'
import type { AnswerType } from './review-answer'

/**
 * What the fill needs: the database, the configured analysis engine and its column reader (null
 * or absent offline: custom columns are then answered by rule, answer-document.ts).
 */
export type FillDeps = { db: Db; analyzer: Analyzer; columnReader?: ColumnReader | null }

/** Cells named in one realtime message at most (a NOTIFY payload holds under 8,000 bytes). */
const CELLS_PER_MESSAGE = 25

type Counts = {
  total: number
  answered: number
  notFound: number
  failed: number
  unverified: number
  /** Quotes of the column reader not found in their document, over this run (decision 0142). */
  droppedQuotes: number
}

/** The 'review-fill' handler over the app's database and analyzer. */
export function reviewFillJobHandler(
  services: Pick<AppServices, 'db' | 'engines'>,
): JobHandlerOf<typeof reviewFillJobContract> {
  const deps = {
    db: services.db,
    analyzer: services.engines.analyzer,
    columnReader: services.engines.columnReader,
  }
  return {
    run: (job, context) => fillReview(deps, jobPrincipal(job), job.id, job.input.reviewId, context),
  }
}

/**
 * Answers every pending cell of review `reviewId` as job `jobId` (see the module comment);
 * resolves to the review's cell counts by state. A review deleted meanwhile ends it with what it
 * counted. Rejects with the signal's reason once cancelled.
 */
export async function fillReview(
  deps: FillDeps,
  principal: Principal,
  jobId: string,
  reviewId: string,
  context: { signal: AbortSignal; progress(fraction: number, message: string): void },
): Promise<Counts> {
  const { db } = deps
  const review = await withTenant(db, principal, async (tx) => {
    const [row] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).limit(1)
    if (!row) return null
    await addAppDocuments(tx, row)
    const [otherFill] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, 'review-fill'),
          eq(jobs.subjectId, reviewId),
          eq(jobs.status, 'running'),
          ne(jobs.id, jobId),
        ),
      )
      .limit(1)
    if (!otherFill)
      await tx
        .update(reviewCells)
        .set({ state: 'pending', updatedAt: new Date() })
        .where(and(eq(reviewCells.reviewId, reviewId), eq(reviewCells.state, 'running')))
    return row
  })
  if (!review)
    return { total: 0, answered: 0, notFound: 0, failed: 0, unverified: 0, droppedQuotes: 0 }
  // Progress is counted once here and then kept by adding each written document's outcomes (a
  // count of the whole review after every document grew with the review: decision 0137); it is
  // counted again every RECOUNT_MS (a column added, a cell retried, another fill) and at the end.
  let counts = await withTenant(db, principal, (tx) => cellStates(tx, reviewId))
  let countedAt = Date.now()
  // Rows are only ever appended (by position), so the next unwritten row lies after the last one
  // this run reached: the claim searches from there, not from the first row again.
  let after = -1
  let claimed: { id: string; columnId: string }[] = []
  let droppedQuotes = 0
  try {
    for (;;) {
      context.signal.throwIfAborted()
      const claim = await claimDocument(db, principal, reviewId, after)
      if (!claim) break
      if (claim.unwrittenPosition !== null) after = claim.unwrittenPosition
      // Another fill took this row between our reads: take the next.
      if (claim.cells.length === 0) continue
      claimed = claim.cells
      const answered = await answerClaimed(deps, claim, context.signal)
      const { outcomes } = answered
      droppedQuotes += answered.droppedQuotes
      context.signal.throwIfAborted()
      const recount = Date.now() - countedAt >= RECOUNT_MS
      const write = (written: Map<string, CellOutcome>) =>
        withTenant(db, principal, async (tx) => {
          await writeOutcomes(tx, claim.cells, written)
          const next = recount
            ? await cellStates(tx, reviewId)
            : addOutcomes(counts, claim, written)
          await announce(tx, review, claim, written, next)
          return next
        })
      try {
        counts = await write(outcomes)
      } catch (error) {
        // Answers the database refuses (a value it cannot hold) would fail every later fill on
        // this document: its cells fail, with a reason, and the fill goes on to the next.
        if (!isDataException(error)) throw error
        counts = await write(new Map(claim.cells.map((cell) => [cell.columnId, UNSTORABLE])))
      }
      if (recount) countedAt = Date.now()
      claimed = []
      const done = counts.total - pendingOf(counts)
      context.progress(
        counts.total === 0 ? 1 : done / counts.total,
        `${done.toLocaleString('en-US')} of ${counts.total.toLocaleString('en-US')} cells`,
      )
    }
  } catch (error) {
    // Cancelled or failed mid-document: its cells go back to pending for the next fill.
    if (claimed.length > 0) await release(db, principal, claimed).catch(() => {})
    throw error
  }
  const { pending: _pending, ...final } = await withTenant(db, principal, (tx) =>
    cellStates(tx, reviewId),
  )
  return { ...final, droppedQuotes }
}

/** A cell whose answer the database refused (isDataException). */
const UNSTORABLE: CellOutcome = {
  state: 'failed',
  reason: 'The answer found could not be stored; retry the cell, or report this document.',
}

/**
 * How often (ms) the fill counts the whole review's cells again instead of adding up what it
 * wrote: between two counts, changes by others (a column added, a retry, another fill) are not
 * in its progress. 10 s: a few counts in a 1,000-document fill, none in a small one.
 */
const RECOUNT_MS = 10_000

type States = Awaited<ReturnType<typeof cellStates>>

/**
 * `counts` after `claim`'s cells (counted as pending) were written with `outcomes`; a cell whose
 * column is missing from `outcomes` was written failed (writeOutcomes). Pending never goes below 0
 * (a column added since the last count makes a claim larger than counted).
 */
function addOutcomes(counts: States, claim: Claim, outcomes: Map<string, CellOutcome>): States {
  const next = { ...counts }
  for (const cell of claim.cells) {
    const state = outcomes.get(cell.columnId)?.state ?? 'failed'
    if (next.pending > 0) next.pending -= 1
    else next.total += 1
    if (state === 'answered') next.answered += 1
    else if (state === 'not_found') next.notFound += 1
    else if (state === 'unverified') next.unverified += 1
    else next.failed += 1
  }
  return next
}

/** Counts by state as the job reports them (unwritten cells count as pending: cellCounts). */
async function cellStates(tx: Tx, reviewId: string) {
  const counts = await cellCounts(tx, reviewId)
  return {
    total: counts.total,
    answered: counts.answered,
    notFound: counts.not_found,
    failed: counts.failed,
    unverified: counts.unverified,
    pending: counts.pending + counts.running,
  }
}

const pendingOf = (counts: Awaited<ReturnType<typeof cellStates>>) => counts.pending

/** A document's claimed cells, with what answering them needs. */
interface Claim {
  documentId: string
  rowId: string
  cells: { id: string; columnId: string }[]
  /** The row's position when its cells were not written yet (the fill's cursor), else null. */
  unwrittenPosition: number | null
  /** What answering the cells reads (readClaimed), in the claim's transaction. */
  read: Awaited<ReturnType<typeof readClaimed>>
}

/**
 * Marks running the pending cells of the first row (by position) that has any or whose cells are
 * not written yet (writing them first), in one transaction; null when none is left (or the review
 * has no column). Unwritten rows are searched after position `after` only (the caller's cursor:
 * rows are appended, so none is left before the last unwritten row it reached), through the
 * (review, position) index, so a claim does not grow with the rows already written. Rows another
 * fill holds are skipped (SKIP LOCKED); a row another fill wrote meanwhile comes back with no
 * cells (the caller takes the next).
 */
async function claimDocument(
  db: Db,
  principal: Principal,
  reviewId: string,
  after: number,
): Promise<Claim | null> {
  return withTenant(db, principal, async (tx) => {
    const [column] = await tx
      .select({ id: reviewColumns.id })
      .from(reviewColumns)
      .where(eq(reviewColumns.reviewId, reviewId))
      .limit(1)
    if (!column) return null
    const [pending] = await tx
      .select({
        rowId: reviewCells.rowId,
        documentId: reviewCells.documentId,
        position: reviewCells.rowPosition,
      })
      .from(reviewCells)
      .where(and(eq(reviewCells.reviewId, reviewId), eq(reviewCells.state, 'pending')))
      .orderBy(asc(reviewCells.rowPosition))
      .limit(1)
      .for('update', { skipLocked: true })
    const [unwritten] = await tx
      .select({
        rowId: reviewRows.id,
        documentId: reviewRows.documentId,
        position: reviewRows.position,
      })
      .from(reviewRows)
      .where(
        and(
          eq(reviewRows.reviewId, reviewId),
          gt(reviewRows.position, after),
          sql`NOT EXISTS (SELECT 1 FROM review_cells x WHERE x.row_id = ${reviewRows.id})`,
          pending ? lt(reviewRows.position, pending.position) : undefined,
        ),
      )
      .orderBy(asc(reviewRows.position))
      .limit(1)
    const next = unwritten ?? pending
    if (!next) return null
    if (unwritten) {
      // addColumn holds the review FOR UPDATE while it adds a column and its written rows' cells:
      // writing this row's cells under a share lock orders the two, so neither misses the other's
      // column or row (a cell never left unwritten while its row's others are written).
      await tx.execute(sql`SELECT 1 FROM reviews WHERE id = ${reviewId} FOR SHARE`)
      await addMissingCells(tx, reviewId, { rowIds: [unwritten.rowId] })
    }
    const cells = await tx
      .update(reviewCells)
      .set({ state: 'running', updatedAt: new Date() })
      .where(
        and(
          eq(reviewCells.reviewId, reviewId),
          eq(reviewCells.rowId, next.rowId),
          eq(reviewCells.state, 'pending'),
        ),
      )
      .returning({ id: reviewCells.id, columnId: reviewCells.columnId })
    // Another fill wrote this row meanwhile: nothing to read (the caller takes the next).
    const read =
      cells.length > 0
        ? await readClaimed(tx, next.documentId, [...new Set(cells.map((c) => c.columnId))])
        : { document: undefined, columns: [], stored: undefined, textBeingRead: false }
    return {
      documentId: next.documentId,
      rowId: next.rowId,
      cells,
      unwrittenPosition: unwritten ? unwritten.position : null,
      read,
    }
  })
}

/** Puts `cells` back to pending (a cancelled or failed run's claim). */
async function release(db: Db, principal: Principal, cells: readonly { id: string }[]) {
  await withTenant(db, principal, (tx) =>
    tx
      .update(reviewCells)
      .set({ state: 'pending', updatedAt: new Date() })
      .where(
        and(
          inArray(
            reviewCells.id,
            cells.map((c) => c.id),
          ),
          eq(reviewCells.state, 'running'),
        ),
      ),
  )
}

/**
 * What answering `documentId`'s cells of `columnIds` reads, in the claim's transaction: the
 * document, the columns, and its latest stored full analysis when a preset column needs one.
 */
async function readClaimed(tx: Tx, documentId: string, columnIds: string[]) {
  const [document] = await tx
    .select({ id: documents.id, title: documents.title, content: documents.content })
    .from(documents)
    .where(eq(documents.id, documentId))
    .limit(1)
  const columns = await tx
    .select({
      id: reviewColumns.id,
      presetKey: reviewColumns.presetKey,
      question: reviewColumns.question,
      answerType: reviewColumns.answerType,
    })
    .from(reviewColumns)
    .where(inArray(reviewColumns.id, columnIds))
  // A document without text whose scan is being read: its cells are answered again when the
  // text arrives (documents/app-review-fills.ts reopenCellsForText).
  const [reading] =
    document?.content.trim() === ''
      ? await tx
          .select({ id: jobs.id })
          .from(jobs)
          .where(
            and(
              eq(jobs.kind, ocrJobContract.kind),
              eq(jobs.subjectId, documentId),
              inArray(jobs.status, ['queued', 'running']),
            ),
          )
          .limit(1)
      : []
  const needsAnalysis = columns.some((c) => c.presetKey !== null)
  const [stored] = needsAnalysis
    ? await tx
        .select({ result: analyses.result })
        .from(analyses)
        .where(and(eq(analyses.documentId, documentId), eq(analyses.kind, 'full')))
        .orderBy(desc(analyses.createdAt))
        .limit(1)
    : []
  return { document, columns, stored, textBeingRead: reading !== undefined }
}

/**
 * The outcome of each claimed cell: the document and its columns (read with the claim), the
 * analysis made outside any (when a preset column needs one and no stored analysis is of this
 * text), then answered (answer-document.ts); with a column reader, the custom columns by one
 * request (read-custom-columns.ts), whose quotes not found in the document are counted.
 */
async function answerClaimed(
  deps: FillDeps,
  claim: Claim,
  signal: AbortSignal,
): Promise<{ outcomes: Map<string, CellOutcome>; droppedQuotes: number }> {
  const { document, stored } = claim.read
  const byColumn = (outcome: CellOutcome) => ({
    outcomes: new Map(claim.cells.map((cell) => [cell.columnId, outcome])),
    droppedQuotes: 0,
  })
  if (!document) return byColumn({ state: 'failed', reason: 'The document no longer exists.' })
  if (document.content.trim() === '')
    return byColumn({
      state: 'failed',
      reason: claim.read.textBeingRead
        ? TEXT_BEING_READ
        : 'This document has no text (a scan with nothing legible?).',
    })
  const all = claim.read.columns.map((c) => ({ ...c, answerType: c.answerType as AnswerType }))
  const reader = deps.columnReader
  const custom = reader ? all.filter((c) => c.presetKey === null) : []
  const columns = reader ? all.filter((c) => c.presetKey !== null) : all
  const read = reader ? await readCustomColumns(reader, document, custom, signal) : undefined
  let analysis: AnalysisResult | null = null
  let failure: string | undefined
  if (columns.some((c) => c.presetKey !== null)) {
    const parsed = stored ? AnalysisResult.safeParse(stored.result) : null
    if (parsed?.success && analysisOfText(document.content, parsed.data)) analysis = parsed.data
    else {
      try {
        analysis = await deps.analyzer.analyze(document.content, 'full', { signal })
      } catch (error) {
        if (signal.aborted) throw error
        failure = 'The analysis engine failed on this document; retry the cell.'
      }
    }
  }
  const outcomes = answerDocument(document, analysis, columns, failure)
  for (const [columnId, outcome] of read?.outcomes ?? []) outcomes.set(columnId, outcome)
  return { outcomes, droppedQuotes: read?.droppedQuotes ?? 0 }
}

/**
 * Writes each claimed cell's outcome (by its column), if it is still running: one statement for
 * the document's cells (a statement per cell was 20 round trips per document in the bench). A
 * new answer is unchecked: a lawyer's check was of the answer it replaces.
 */
async function writeOutcomes(
  tx: Tx,
  cells: readonly { id: string; columnId: string }[],
  outcomes: Map<string, CellOutcome>,
) {
  if (cells.length === 0) return
  const values = cells.map((cell) => {
    const outcome = outcomes.get(cell.columnId) ?? {
      state: 'failed' as const,
      reason: 'The column was removed.',
    }
    return outcome.state === 'answered'
      ? { id: cell.id, state: 'answered', answer: outcome.answer, citations: outcome.citations }
      : { id: cell.id, state: outcome.state, reason: outcome.reason, citations: [] }
  })
  // A JSON null or missing key reads as SQL NULL (answer, reason).
  await tx.execute(sql`
    UPDATE review_cells c
       SET state = v.state, reason = v.reason, answer = v.answer, citations = v.citations,
           verified = false, verified_by = NULL, verified_at = NULL,
           answered_at = now(), updated_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
             AS v(id uuid, state text, reason text, answer jsonb, citations jsonb)
     WHERE c.id = v.id AND c.state = 'running'`)
}

/**
 * Announces the written cells on the organisation's realtime channel as `review_cells` messages
 * (ids and states only, never document text), delivered when `tx` commits.
 */
async function announce(
  tx: Tx,
  review: { id: string; orgId: string; appId: string | null },
  claim: Claim,
  outcomes: Map<string, CellOutcome>,
  counts: Awaited<ReturnType<typeof cellStates>>,
) {
  const { cells, rowId } = claim
  for (let i = 0; i < cells.length; i += CELLS_PER_MESSAGE) {
    const message: Extract<RealtimeServerMessage, { type: 'review_cells' }> = {
      type: 'review_cells',
      reviewId: review.id,
      rowId,
      cells: cells.slice(i, i + CELLS_PER_MESSAGE).map((cell) => ({
        id: cell.id,
        columnId: cell.columnId,
        state: outcomes.get(cell.columnId)?.state ?? 'failed',
      })),
      done: counts.total - counts.pending,
      total: counts.total,
    }
    const payload = JSON.stringify({ org_id: review.orgId, app_id: review.appId, message })
    await tx.execute(sql`SELECT pg_notify(${ORG_MESSAGES_CHANNEL}, ${payload})`)
  }
}

/**
 * A new document of an app joins the app's app-wide reviews as it arrives (issue 44, decision
 * 0137): insertDocument queues, in the document's own transaction, a 'review-fill' job for each
 * review of the app whose rows are "every document of the app" (`row_source = 'app'`), through
 * the job runner (never a queue of its own). The fill, at its start, adds the app's documents that
 * are not rows yet (features/reviews/service.ts addAppDocuments) and answers their cells. A fill
 * already queued for the review is reused (it has not started, so it will add this document: it
 * is locked FOR UPDATE until the document's transaction commits, so the runner cannot start it
 * before); a running one is not (it may have added the rows already). A document whose text comes
 * later (a scan read by OCR) has its cells answered again then (reopenCellsForText). Lives beside
 * document-writes.ts, since features do not import each other.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { jobs, reviewCells, reviewRows, reviews } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'
import { reviewFillJobContract } from '../jobs/contracts/review-fill-job-contract'

/** The review fill's job kind ('review-fill'), from its contract. */
export const REVIEW_FILL_JOB_KIND = reviewFillJobContract.kind

/** What queueing a review's fill needs of the job runner (`services.jobs`, its typed catalogue). */
export interface ReviewFillQueue {
  enqueue(
    tx: Tx,
    principal: Principal,
    kind: typeof REVIEW_FILL_JOB_KIND,
    input: { reviewId: string },
    options: { subjectId?: string },
  ): Promise<unknown>
}

/**
 * Queues in `tx` a fill of each app-wide review of app `appId` that has no fill queued yet, as
 * `principal` (the document's writer; RLS shows it the reviews it may fill). Two reads and one
 * insert per review to fill; none when the app has no app-wide review. Resolves to how many fills
 * it queued.
 */
export async function queueAppReviewFills(
  queue: ReviewFillQueue,
  tx: Tx,
  principal: Principal,
  appId: string,
): Promise<number> {
  const appReviews = await tx
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.appId, appId), eq(reviews.rowSource, 'app')))
  if (appReviews.length === 0) return 0
  return queueFills(
    queue,
    tx,
    principal,
    appReviews.map((r) => r.id),
  )
}

/**
 * Queues in `tx` a fill of each review of `ids` that has no fill queued yet; resolves to how many
 * it queued. The queued fills found are locked until `tx` commits: the runner claims with SKIP
 * LOCKED, so a reused fill cannot start (and miss what `tx` wrote) before `tx` is visible.
 */
async function queueFills(
  queue: ReviewFillQueue,
  tx: Tx,
  principal: Principal,
  ids: readonly string[],
): Promise<number> {
  const queued = await tx
    .select({ subjectId: jobs.subjectId })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, REVIEW_FILL_JOB_KIND),
        eq(jobs.status, 'queued'),
        inArray(jobs.subjectId, [...ids]),
      ),
    )
    .for('update')
  const waiting = new Set(queued.map((j) => j.subjectId))
  let added = 0
  for (const id of ids) {
    if (waiting.has(id)) continue
    await queue.enqueue(tx, principal, REVIEW_FILL_JOB_KIND, { reviewId: id }, { subjectId: id })
    added += 1
  }
  return added
}

/** A review cell's reason while its document's scan is being read (the fill writes it). */
export const TEXT_BEING_READ =
  'This document’s text is still being read (OCR); its cells are answered when it is.'

/** The reason such a cell takes when the reading has ended without text for good. */
export const TEXT_NOT_READ =
  'This document’s scan could not be read (OCR failed or was cancelled); “Read text (OCR)” on the document reads it again and answers these cells.'

/**
 * When the OCR of document `documentId` has failed or been cancelled for good
 * (features/documents/ocr-job.ts), in `tx`: its review cells a fill failed as "still being read"
 * (TEXT_BEING_READ) say instead that it was not read (TEXT_NOT_READ), since no text is coming.
 * Reading it again (ocr-again.ts) reopens them when it stores the text (reopenCellsForText).
 * Resolves to how many cells it changed.
 */
export async function markCellsUnread(tx: Tx, documentId: string): Promise<number> {
  const rows = tx
    .select({ id: reviewRows.id })
    .from(reviewRows)
    .where(eq(reviewRows.documentId, documentId))
  const marked = await tx
    .update(reviewCells)
    .set({ reason: TEXT_NOT_READ, updatedAt: sql`now()` })
    .where(
      and(
        inArray(reviewCells.rowId, rows),
        eq(reviewCells.state, 'failed'),
        eq(reviewCells.reason, TEXT_BEING_READ),
      ),
    )
    .returning({ id: reviewCells.id })
  return marked.length
}

/**
 * When OCR has read document `documentId` (features/documents/ocr-job.ts), in that write's
 * transaction `tx`, text found or not: its review cells a fill failed or holds running (read while
 * it had no text) are pending again, and each review holding them gets a fill queued (one already
 * queued is reused), which answers them from the text, or says it has none. A running fill's answers for those cells are then not written (it writes only cells
 * still `running`), so no cell keeps an answer of the empty text. Resolves to how many fills it
 * queued; none when the document is in no review.
 */
export async function reopenCellsForText(
  queue: ReviewFillQueue,
  tx: Tx,
  principal: Principal,
  documentId: string,
): Promise<number> {
  const rows = tx
    .select({ id: reviewRows.id })
    .from(reviewRows)
    .where(eq(reviewRows.documentId, documentId))
  // Every cell of the document locked first, whatever its state: a fill claiming them now (its
  // transaction marking them running) is waited for, so its running cells are seen here. An
  // UPDATE filtered on the state would skip them unseen (PostgreSQL reads the filter in its
  // snapshot), and the fill would then write them failed for good.
  const locked = await tx
    .select({ id: reviewCells.id })
    .from(reviewCells)
    .where(inArray(reviewCells.rowId, rows))
    .for('update')
  if (locked.length === 0) return 0
  const reopened = await tx
    .update(reviewCells)
    .set({ state: 'pending', reason: null, updatedAt: sql`now()` })
    .where(
      and(
        inArray(
          reviewCells.id,
          locked.map((c) => c.id),
        ),
        inArray(reviewCells.state, ['failed', 'running']),
      ),
    )
    .returning({ reviewId: reviewCells.reviewId })
  if (reopened.length === 0) return 0
  return queueFills(queue, tx, principal, [...new Set(reopened.map((c) => c.reviewId))])
}

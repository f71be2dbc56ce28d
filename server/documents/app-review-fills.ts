/**
 * A new document of an app joins the app's app-wide reviews as it arrives (issue 44, decision
 * 0137): insertDocument queues, in the document's own transaction, a 'review-fill' job for each
 * review of the app whose rows are "every document of the app" (`row_source = 'app'`), through
 * the job runner (never a queue of its own). The fill, at its start, adds the app's documents that
 * are not rows yet (features/reviews/service.ts addAppDocuments) and answers their cells. A fill
 * already queued for the review is reused (it has not started, so it will add this document: it
 * is locked FOR UPDATE until the document's transaction commits, so the runner cannot start it
 * before); a running one is not (it may have added the rows already). Lives beside document-writes.ts, since
 * features do not import each other.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { jobs, reviews } from '../db/schema'
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
  const ids = appReviews.map((r) => r.id)
  const queued = await tx
    .select({ subjectId: jobs.subjectId })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, REVIEW_FILL_JOB_KIND),
        eq(jobs.status, 'queued'),
        inArray(jobs.subjectId, ids),
      ),
    )
    // Locked until the document's transaction commits: the runner claims with SKIP LOCKED, so a
    // reused fill cannot start (and miss this document) before the document is visible.
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

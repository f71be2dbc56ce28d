/**
 * An OCR job that fails for good (features/documents/ocr-job.ts): the review cells of its scan
 * that a fill failed as "still being read" say the scan was not read, since no text is coming;
 * a failure the runner retries leaves them as they are.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { withTenant, type Principal } from '../../db/tenant'
import { documents, reviewCells, reviewColumns, reviewRows, reviews } from '../../db/schema'
import { TEXT_BEING_READ, TEXT_NOT_READ } from '../../documents/app-review-fills'
import type { AppServices } from '../../services'
import { ocrJobHandler } from './ocr-job'

let t: TestApp
let m: TestMember

beforeAll(async () => {
  t = await buildTestApp()
  m = await signedInMember(t, 'ocr-failure@example.com')
})
afterAll(async () => {
  await t.close()
})

const owner = (): Principal => ({
  orgId: m.orgId,
  userId: m.userId,
  role: 'owner',
  actorType: 'user',
})

/** A scan without text (its PDF at `fileKey`) in a review, its one cell failed as being read. */
async function scanInReview(
  fileKey: string | null,
): Promise<{ documentId: string; cellId: string }> {
  return withTenant(t.database.db, owner(), async (tx) => {
    const [doc] = await tx
      .insert(documents)
      .values({ orgId: m.orgId, title: 'Scan', content: '', textStatus: 'empty', fileKey })
      .returning({ id: documents.id })
    const [review] = await tx
      .insert(reviews)
      .values({ orgId: m.orgId, name: 'Scans', rowSource: 'selection' })
      .returning({ id: reviews.id })
    const [column] = await tx
      .insert(reviewColumns)
      .values({
        orgId: m.orgId,
        reviewId: review!.id,
        position: 0,
        label: 'Parties',
        presetKey: 'term:parties',
        answerType: 'party',
      })
      .returning({ id: reviewColumns.id })
    const [row] = await tx
      .insert(reviewRows)
      .values({ orgId: m.orgId, reviewId: review!.id, documentId: doc!.id, position: 0 })
      .returning({ id: reviewRows.id })
    const [cell] = await tx
      .insert(reviewCells)
      .values({
        orgId: m.orgId,
        reviewId: review!.id,
        rowId: row!.id,
        columnId: column!.id,
        documentId: doc!.id,
        rowPosition: 0,
        columnPosition: 0,
        state: 'failed',
        reason: TEXT_BEING_READ,
      })
      .returning({ id: reviewCells.id })
    return { documentId: doc!.id, cellId: cell!.id }
  })
}

const reasonOf = async (cellId: string) =>
  (
    await withTenant(t.database.db, owner(), (tx) =>
      tx
        .select({ state: reviewCells.state, reason: reviewCells.reason })
        .from(reviewCells)
        .where(eq(reviewCells.id, cellId)),
    )
  )[0]

/** An 'ocr' job of `documentId` on its first of two attempts, as the runner claims it. */
const ocrJob = (documentId: string) => ({
  id: randomUUID(),
  orgId: m.orgId,
  kind: 'ocr',
  attempts: 1,
  maxAttempts: 2,
  createdBy: m.userId,
  input: { documentId, pages: 1 },
})

const context = () => ({ signal: new AbortController().signal, progress: () => {} })

describe('an OCR job that fails for good', () => {
  it('leaves its scan’s review cells saying it was not read, not "still being read" for ever', async () => {
    // No PDF: an AppError, which the runner never retries.
    const { documentId, cellId } = await scanInReview(null)
    const ocr = ocrJobHandler({ db: t.database.db } as AppServices)
    await expect(ocr.run(ocrJob(documentId), context())).rejects.toMatchObject({
      code: 'file_not_found',
    })
    expect(await reasonOf(cellId)).toEqual({ state: 'failed', reason: TEXT_NOT_READ })
  })

  it('leaves them as they are when the runner will run the job again', async () => {
    // A key outside the organisation's files: an unexpected error, retried on attempt 1 of 2.
    const { documentId, cellId } = await scanInReview('not-a-key')
    const ocr = ocrJobHandler({ db: t.database.db } as AppServices)
    await expect(ocr.run(ocrJob(documentId), context())).rejects.toBeInstanceOf(Error)
    expect(await reasonOf(cellId)).toEqual({ state: 'failed', reason: TEXT_BEING_READ })
  })
})

/**
 * Reviews (issue 44, decision 0137): a grid of documents (rows) and questions (columns), each
 * cell answered with citations by the 'review-fill' job (review-fill-job.ts). Everything here
 * runs under the principal's RLS: another organisation's review, or another app's for an
 * app-bound credential, is a 404. Every write is audited in its own transaction; the answers
 * themselves are written by the job.
 */
import { and, asc, count, desc, eq, inArray, max, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { documents, jobs, reviewCells, reviewColumns, reviewRows, reviews } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { assertCreatorOrAdmin } from '../../db/assert-creator-or-admin'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { AppError, notFound } from '../../errors/app-error'
import { readListPage, readPage, type PageWindow } from '../../lists/list-kit'
import { recordAudit } from '../../audit/record-audit'
import { cancelSubjectJobs, toJob, type JobOfKind } from '../../jobs/job-service'
import type { reviewFillJobContract } from '../../jobs/contracts/review-fill-job-contract'
import type { AppServices } from '../../services'
import { isYesNoQuestion } from '../../ai/chat/yes-no-question'
import { presetOf } from './review-presets'
import { answerAsText, storedCell, type ReviewAnswer } from './review-answer'
import {
  CELL_STATES,
  MAX_REVIEW_COLUMNS,
  MAX_REVIEW_ROWS,
  type CellQuery,
  type CellState,
  type ColumnInput,
  type CreateReviewBody,
} from './schemas'

/** What the routes need: the database and the job runner (to queue fills). */
export type ReviewDeps = { db: Db; jobs: AppServices['jobs'] }

type ReviewRow = typeof reviews.$inferSelect
type ColumnRow = typeof reviewColumns.$inferSelect
type CellRow = typeof reviewCells.$inferSelect
type FillJob = JobOfKind<typeof reviewFillJobContract>

/** Rows inserted per statement (keeps each under PostgreSQL's 65,535 parameters). */
const INSERT_BATCH = 1000

const CREATOR_OR_ADMIN = {
  code: 'forbidden',
  detail: 'Only the review’s creator or an admin may change or delete it',
} as const

/** The API shape of a review row. */
function toSummary(row: ReviewRow) {
  return {
    id: row.id,
    appId: row.appId,
    name: row.name,
    rowSource: row.rowSource as 'selection' | 'app',
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  }
}

function toColumn(row: ColumnRow) {
  return {
    id: row.id,
    position: row.position,
    label: row.label,
    presetKey: row.presetKey,
    question: row.question,
    answerType: row.answerType as ReturnType<typeof columnValues>['answerType'],
  }
}

/** What toCell reads of a cell (a written one's row, or an unwritten one's pending values). */
type CellFields = Pick<
  CellRow,
  | 'id'
  | 'rowId'
  | 'columnId'
  | 'documentId'
  | 'rowPosition'
  | 'columnPosition'
  | 'state'
  | 'reason'
  | 'answer'
  | 'citations'
  | 'override'
  | 'verified'
  | 'verifiedBy'
  | 'verifiedAt'
  | 'answeredAt'
>

/**
 * The API shape of a cell: an answer only when answered (never an unverified one's), each answer
 * (the cell's, the override's) with its one-line `text` (answerAsText, the export's).
 */
export function toCell(row: CellFields) {
  const stored = storedCell(row)
  const state = stored.state as CellState
  const { answer, override } = stored
  return {
    id: row.id,
    rowId: row.rowId,
    columnId: row.columnId,
    documentId: row.documentId,
    rowPosition: row.rowPosition,
    columnPosition: row.columnPosition,
    state,
    reason: stored.reason,
    answer,
    text: answer ? answerAsText(answer) : null,
    citations:
      state === 'answered' ? (row.citations as { start: number; end: number; text: string }[]) : [],
    override: override
      ? { ...override, text: override.answer ? answerAsText(override.answer) : null }
      : null,
    verified: row.verified,
    verifiedBy: row.verifiedBy,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    answeredAt: row.answeredAt?.toISOString() ?? null,
  }
}

/**
 * A column's stored values from its input: a preset's label and answer type, or the custom
 * question's. Throws 400 `bad_review_column` for an unknown preset, or a yes/no column whose
 * question is not one ("Does…?", "May…?"): it could never be answered.
 */
function columnValues(input: ColumnInput) {
  if ('preset' in input) {
    const preset = presetOf(input.preset)
    if (!preset)
      throw new AppError(
        'bad_review_column',
        `No preset column "${input.preset}" (listReviewPresets)`,
      )
    return {
      presetKey: preset.key,
      question: null,
      label: preset.label,
      answerType: preset.answerType,
    }
  }
  if (input.answerType === 'yes_no' && !isYesNoQuestion(input.question))
    throw new AppError(
      'bad_review_column',
      'A yes/no column asks a yes/no question ("Does…?", "May…?", "Is…?")',
    )
  return {
    presetKey: null,
    question: input.question,
    label: input.label ?? input.question,
    answerType: input.answerType,
  }
}

/** The review `reviewId` as `principal` sees it (RLS), or 404 `review_not_found`. */
async function findReview(tx: Tx, reviewId: string): Promise<ReviewRow> {
  const [row] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).limit(1)
  if (!row) throw notFound('Review')
  return row
}

/**
 * The id of the cell at (`rowId`, `columnId`) as SQL: md5 of the two ids as a uuid, its version
 * and variant digits set (4 and 8) so it validates as an RFC 4122 uuid like the others. A cell
 * keeps this id from the moment it is listed unwritten (pending) to its written row, so the
 * screen's and the realtime messages' ids agree (decision 0137).
 */
export const cellIdSql = (rowId: SQL | AnyColumn, columnId: SQL | AnyColumn) =>
  sql<string>`overlay(overlay(md5(${rowId}::text || '/' || ${columnId}::text)
                placing '4' from 13) placing '8' from 17)::uuid`

/**
 * Writes each (row, column) pair of review `reviewId` that has no cell yet as a pending cell
 * (id: cellIdSql), for `only` the given rows or column when given; one statement. With a column
 * only, only rows whose cells are written get one: a row's cells are all written or none are
 * (the fill writes an unwritten row's cells when it reaches the row). Returns how many it added.
 */
export async function addMissingCells(
  tx: Tx,
  reviewId: string,
  only: { columnId?: string; rowIds?: string[] } = {},
): Promise<number> {
  const result = await tx.execute(sql`
    INSERT INTO review_cells (id, org_id, app_id, review_id, row_id, column_id, document_id,
                              row_position, column_position)
    SELECT ${cellIdSql(sql`r.id`, sql`c.id`)}, r.org_id, r.app_id, r.review_id, r.id, c.id,
           r.document_id, r.position, c.position
      FROM review_rows r JOIN review_columns c ON c.review_id = r.review_id
     WHERE r.review_id = ${reviewId}
       ${
         only.columnId
           ? sql`AND c.id = ${only.columnId}
                 AND EXISTS (SELECT 1 FROM review_cells x WHERE x.row_id = r.id)`
           : sql``
       }
       ${
         only.rowIds
           ? sql`AND r.id IN (${sql.join(
               only.rowIds.map((id) => sql`${id}`),
               sql`, `,
             )})`
           : sql``
       }
    ON CONFLICT (row_id, column_id) DO NOTHING`)
  // node-postgres counts in rowCount, PGlite in affectedRows.
  const counted = result as unknown as { rowCount?: number | null; affectedRows?: number }
  return counted.rowCount ?? counted.affectedRows ?? 0
}

/**
 * Review `reviewId`'s cells counted by state, `total` being rows × columns: cells not written yet
 * count as pending. One transaction's reads.
 */
export async function cellCounts(
  tx: Tx,
  reviewId: string,
): Promise<{ total: number } & Record<CellState, number>> {
  const [[rowCount], [columnCount], states] = await Promise.all([
    tx.select({ n: count() }).from(reviewRows).where(eq(reviewRows.reviewId, reviewId)),
    tx.select({ n: count() }).from(reviewColumns).where(eq(reviewColumns.reviewId, reviewId)),
    tx
      .select({ state: reviewCells.state, n: count() })
      .from(reviewCells)
      .where(eq(reviewCells.reviewId, reviewId))
      .groupBy(reviewCells.state),
  ])
  const cells = Object.fromEntries(CELL_STATES.map((state) => [state, 0])) as Record<
    CellState,
    number
  >
  for (const { state, n } of states) cells[state as CellState] = n
  const written = states.reduce((sum, s) => sum + s.n, 0)
  const total = Math.max(written, (rowCount?.n ?? 0) * (columnCount?.n ?? 0))
  cells.pending += total - written
  return { total, ...cells }
}

/**
 * Adds the documents of `review`'s app that are not rows yet as rows after the last one (a
 * review of an app's documents, decision 0137), oldest first, up to MAX_REVIEW_ROWS rows in all:
 * past it the app's newer documents are not added (the review stops growing at the cap; its
 * creation refused an app already past it, createReview). Their cells are written by the fill as
 * it reaches them (they list as pending meanwhile). Returns the rows added.
 */
export async function addAppDocuments(tx: Tx, review: ReviewRow): Promise<number> {
  if (review.rowSource !== 'app' || !review.appId) return 0
  const added = (await tx.execute(sql`
    INSERT INTO review_rows (org_id, app_id, review_id, document_id, position)
    SELECT ${review.orgId}, ${review.appId}, ${review.id}, d.id,
           coalesce((SELECT max(position) FROM review_rows WHERE review_id = ${review.id}), -1)
             + row_number() OVER (ORDER BY d.created_at, d.id)
      FROM documents d
     WHERE d.app_id = ${review.appId}
       AND NOT EXISTS (SELECT 1 FROM review_rows x
                        WHERE x.review_id = ${review.id} AND x.document_id = d.id)
     LIMIT greatest(0, ${MAX_REVIEW_ROWS} -
                       (SELECT count(*) FROM review_rows WHERE review_id = ${review.id}))
    ON CONFLICT (review_id, document_id) DO NOTHING
    RETURNING id`)) as unknown as { rows: { id: string }[] }
  return added.rows.length
}

/**
 * Queues a fill of review `reviewId` in `tx` unless one is queued already (which will find the
 * pending cells when it runs); a running fill is not enough, since it may have just found none.
 * The queued job reused is locked FOR UPDATE until `tx` commits: the runner claims with SKIP
 * LOCKED, so it cannot run that fill before the cells it must answer are committed (and a job
 * claimed meanwhile no longer reads as queued: a new one is queued). Resolves to the fill job
 * that will answer them.
 */
async function queueFill(
  deps: ReviewDeps,
  tx: Tx,
  principal: Principal,
  reviewId: string,
): Promise<FillJob> {
  const [queued] = await tx
    .select()
    .from(jobs)
    .where(
      and(eq(jobs.kind, 'review-fill'), eq(jobs.subjectId, reviewId), eq(jobs.status, 'queued')),
    )
    .limit(1)
    .for('update')
  if (queued) return toJob(queued) as FillJob
  return deps.jobs.enqueue(tx, principal, 'review-fill', { reviewId }, { subjectId: reviewId })
}

/** The organisation's reviews (an app-bound credential: its app's), newest first. */
export async function listReviews(db: Db, principal: Principal, page: PageWindow) {
  const { rows, total } = await readPage(db, principal, reviews, {
    orderBy: [desc(reviews.createdAt), desc(reviews.id)],
    ...page,
  })
  return { items: rows.map(toSummary), total }
}

/**
 * Creates a review with its rows and columns in one transaction (audited 'review.create'), and
 * queues its fill when it has rows and columns. No cell is written here: the fill writes each
 * row's cells as it reaches the row, and until then they list as pending (listCells, cellCounts),
 * so creating a review of 1,000 documents × 20 columns writes 1,000 rows, not 20,000 cells. The rows are `input.rows`: documents
 * of the organisation (of the review's app, for an app's review: another's is a 404 like a
 * missing one), or every document of the app. Throws 404 `app_not_found` for an app that is not
 * the organisation's, 404 `document_not_found`, 400 `bad_review_column`, 413 `review_too_large`
 * past MAX_REVIEW_ROWS documents (picked, or the app's when it is created: an app-wide review
 * then stops growing at the cap, addAppDocuments).
 */
export async function createReview(
  deps: ReviewDeps,
  principal: Principal,
  input: CreateReviewBody,
) {
  const appId = input.appId ?? principal.appId ?? null
  const columns = input.columns.map(columnValues)
  try {
    return await withTenant(deps.db, principal, async (tx) => {
      const [review] = await tx
        .insert(reviews)
        .values({
          orgId: principal.orgId,
          appId,
          name: input.name,
          rowSource: input.rows.source,
          createdBy: principal.userId,
        })
        .returning()
      if (!review) throw new Error('insert returned no row')
      if (columns.length > 0)
        await tx.insert(reviewColumns).values(
          columns.map((column, position) => ({
            ...column,
            orgId: principal.orgId,
            appId,
            reviewId: review.id,
            position,
          })),
        )
      let rowCount = 0
      if (input.rows.source === 'selection') {
        const ids = [...new Set(input.rows.documentIds)]
        for (let i = 0; i < ids.length; i += INSERT_BATCH) {
          const batch = ids.slice(i, i + INSERT_BATCH)
          const found = await tx
            .select({ id: documents.id })
            .from(documents)
            .where(
              and(inArray(documents.id, batch), appId ? eq(documents.appId, appId) : undefined),
            )
          if (found.length !== batch.length) throw notFound('Document')
          const known = new Set(found.map((d) => d.id))
          await tx.insert(reviewRows).values(
            batch
              .filter((id) => known.has(id))
              .map((documentId, j) => ({
                orgId: principal.orgId,
                appId,
                reviewId: review.id,
                documentId,
                position: i + j,
              })),
          )
        }
        rowCount = ids.length
      } else {
        const [appDocuments] = appId
          ? await tx.select({ n: count() }).from(documents).where(eq(documents.appId, appId))
          : []
        const held = appDocuments?.n ?? 0
        if (held > MAX_REVIEW_ROWS)
          throw new AppError(
            'review_too_large',
            `A review holds at most ${MAX_REVIEW_ROWS.toLocaleString('en-US')} documents; this app has ${held.toLocaleString('en-US')}. Pick the documents to review instead.`,
          )
        rowCount = await addAppDocuments(tx, review)
      }
      await recordAudit(
        tx,
        principal,
        'review.create',
        { type: 'review', id: review.id },
        { name: review.name, rows: rowCount, columns: columns.length },
      )
      const fill =
        rowCount > 0 && columns.length > 0 ? await queueFill(deps, tx, principal, review.id) : null
      return { ...(await readReviewIn(tx, review)), fillJob: fill }
    })
  } catch (error) {
    if (isForeignKeyViolation(error, 'reviews_app_fk')) throw notFound('App')
    throw error
  }
}

/** A review with its columns, row count, cell counts and latest fill, read in `tx`. */
async function readReviewIn(tx: Tx, review: ReviewRow) {
  const [columns, [rowCount], cells, [fill]] = await Promise.all([
    tx
      .select()
      .from(reviewColumns)
      .where(eq(reviewColumns.reviewId, review.id))
      .orderBy(asc(reviewColumns.position)),
    tx.select({ n: count() }).from(reviewRows).where(eq(reviewRows.reviewId, review.id)),
    cellCounts(tx, review.id),
    tx
      .select({ id: jobs.id, status: jobs.status, progress: jobs.progress })
      .from(jobs)
      .where(and(eq(jobs.kind, 'review-fill'), eq(jobs.subjectId, review.id)))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(1),
  ])
  return {
    ...toSummary(review),
    rows: rowCount?.n ?? 0,
    columns: columns.map(toColumn),
    cells,
    fill: fill ? { jobId: fill.id, status: fill.status, progress: fill.progress } : null,
  }
}

/** Review `reviewId` with its columns and counts; 404 `review_not_found`. */
export async function readReview(db: Db, principal: Principal, reviewId: string) {
  return withTenant(db, principal, async (tx) => readReviewIn(tx, await findReview(tx, reviewId)))
}

/** Renames a review (its creator or an admin; audited); answers it as readReview does. */
export async function renameReview(db: Db, principal: Principal, reviewId: string, name: string) {
  return withTenant(db, principal, async (tx) => {
    const review = await findReview(tx, reviewId)
    assertCreatorOrAdmin(principal, review.createdBy, CREATOR_OR_ADMIN)
    const [renamed] = await tx
      .update(reviews)
      .set({ name })
      .where(eq(reviews.id, reviewId))
      .returning()
    await recordAudit(tx, principal, 'review.rename', { type: 'review', id: reviewId }, { name })
    return readReviewIn(tx, renamed ?? review)
  })
}

/**
 * Deletes a review with its columns, rows and cells (its creator or an admin; audited) and stops
 * its fill; 404 `review_not_found`.
 */
export async function deleteReview(db: Db, principal: Principal, reviewId: string) {
  await withTenant(db, principal, async (tx) => {
    const review = await findReview(tx, reviewId)
    assertCreatorOrAdmin(principal, review.createdBy, CREATOR_OR_ADMIN)
    await cancelSubjectJobs(tx, [reviewId])
    await tx.delete(reviews).where(eq(reviews.id, reviewId))
    await recordAudit(
      tx,
      principal,
      'review.delete',
      { type: 'review', id: reviewId },
      { name: review.name },
    )
  })
}

/** A review's columns, left to right; 404 `review_not_found`. */
export async function listColumns(db: Db, principal: Principal, reviewId: string) {
  return withTenant(db, principal, async (tx) => {
    await findReview(tx, reviewId)
    const rows = await tx
      .select()
      .from(reviewColumns)
      .where(eq(reviewColumns.reviewId, reviewId))
      .orderBy(asc(reviewColumns.position))
    return { items: rows.map(toColumn), total: rows.length }
  })
}

/**
 * Adds a column at the right of review `reviewId` with a pending cell per written row (the other
 * rows' cells are written by the fill), and queues the fill (audited 'review.column.add').
 * Answers the column and the fill job (null without rows).
 * Throws 404 `review_not_found`, 400 `bad_review_column`, 413 `review_too_large` past
 * MAX_REVIEW_COLUMNS.
 */
export async function addColumn(
  deps: ReviewDeps,
  principal: Principal,
  reviewId: string,
  input: ColumnInput,
) {
  const values = columnValues(input)
  return withTenant(deps.db, principal, async (tx) => {
    const review = await findReview(tx, reviewId)
    // One column added at a time per review: the lock orders concurrent adds' positions.
    await tx.execute(sql`SELECT 1 FROM reviews WHERE id = ${reviewId} FOR UPDATE`)
    const [stats] = await tx
      .select({ n: count(), last: max(reviewColumns.position) })
      .from(reviewColumns)
      .where(eq(reviewColumns.reviewId, reviewId))
    if ((stats?.n ?? 0) >= MAX_REVIEW_COLUMNS)
      throw new AppError('review_too_large', `A review holds at most ${MAX_REVIEW_COLUMNS} columns`)
    const [column] = await tx
      .insert(reviewColumns)
      .values({
        ...values,
        orgId: principal.orgId,
        appId: review.appId,
        reviewId,
        position: (stats?.last ?? -1) + 1,
      })
      .returning()
    if (!column) throw new Error('insert returned no row')
    await addMissingCells(tx, reviewId, { columnId: column.id })
    const [rows] = await tx
      .select({ n: count() })
      .from(reviewRows)
      .where(eq(reviewRows.reviewId, reviewId))
    await recordAudit(
      tx,
      principal,
      'review.column.add',
      { type: 'review', id: reviewId },
      { columnId: column.id, label: column.label },
    )
    const fill = (rows?.n ?? 0) > 0 ? await queueFill(deps, tx, principal, reviewId) : null
    return { column: toColumn(column), fillJob: fill }
  })
}

/** Removes a column and its cells (audited 'review.column.remove'); 404 for either. */
export async function removeColumn(
  db: Db,
  principal: Principal,
  reviewId: string,
  columnId: string,
) {
  await withTenant(db, principal, async (tx) => {
    await findReview(tx, reviewId)
    const [removed] = await tx
      .delete(reviewColumns)
      .where(and(eq(reviewColumns.id, columnId), eq(reviewColumns.reviewId, reviewId)))
      .returning({ id: reviewColumns.id, label: reviewColumns.label })
    if (!removed) throw notFound('Review column')
    await recordAudit(
      tx,
      principal,
      'review.column.remove',
      { type: 'review', id: reviewId },
      { columnId, label: removed.label },
    )
  })
}

/**
 * A page of review `reviewId`'s cells in grid order (row, then column), filtered by column, row
 * or state, read with its count in one tenant read (the list kit); 404 `review_not_found`. The
 * grid is rows × columns: a cell the fill has not written yet lists as pending, with the id it
 * will be written with (cellIdSql).
 */
export async function listCells(db: Db, principal: Principal, reviewId: string, query: CellQuery) {
  const state = sql<string>`coalesce(${reviewCells.state}, 'pending')`
  const where: SQL | undefined = and(
    eq(reviewRows.reviewId, reviewId),
    query.columnId ? eq(reviewColumns.id, query.columnId) : undefined,
    query.rowId ? eq(reviewRows.id, query.rowId) : undefined,
    query.state ? sql`${state} = ${query.state}` : undefined,
  )
  const { rows, total, also } = await readListPage(db, principal, query, (tx) => {
    const cellOf = and(
      eq(reviewCells.rowId, reviewRows.id),
      eq(reviewCells.columnId, reviewColumns.id),
    )
    const byReview = eq(reviewColumns.reviewId, reviewRows.reviewId)
    return {
      rows: tx
        .select({
          id: sql<string>`coalesce(${reviewCells.id}, ${cellIdSql(reviewRows.id, reviewColumns.id)})`,
          rowId: reviewRows.id,
          columnId: reviewColumns.id,
          documentId: reviewRows.documentId,
          rowPosition: reviewRows.position,
          columnPosition: reviewColumns.position,
          state,
          reason: reviewCells.reason,
          answer: reviewCells.answer,
          citations: reviewCells.citations,
          override: reviewCells.override,
          verified: reviewCells.verified,
          verifiedBy: reviewCells.verifiedBy,
          verifiedAt: reviewCells.verifiedAt,
          answeredAt: reviewCells.answeredAt,
        })
        .from(reviewRows)
        .innerJoin(reviewColumns, byReview)
        .leftJoin(reviewCells, cellOf)
        .where(where)
        .orderBy(asc(reviewRows.position), asc(reviewColumns.position)),
      total: tx
        .select({ n: count() })
        .from(reviewRows)
        .innerJoin(reviewColumns, byReview)
        .leftJoin(reviewCells, cellOf)
        .where(where)
        .then(([row]) => row?.n ?? 0),
      also: [tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.id, reviewId))] as const,
    }
  })
  if (also[0].length === 0) throw notFound('Review')
  return {
    items: rows.map((row) =>
      toCell({ ...row, citations: row.citations ?? [], verified: row.verified ?? false }),
    ),
    total,
  }
}

/**
 * Cell `cellId` of review `reviewId` in `tx` with its column's answer type; 404 otherwise. A cell
 * not written yet (listed pending under its cellIdSql id) is written first, with its row's.
 */
async function findCell(tx: Tx, reviewId: string, cellId: string) {
  await findReview(tx, reviewId)
  const read = () =>
    tx
      .select({ cell: reviewCells, answerType: reviewColumns.answerType })
      .from(reviewCells)
      .innerJoin(reviewColumns, eq(reviewColumns.id, reviewCells.columnId))
      .where(and(eq(reviewCells.id, cellId), eq(reviewCells.reviewId, reviewId)))
      .limit(1)
  let [found] = await read()
  if (!found) {
    const [unwritten] = await tx
      .select({ rowId: reviewRows.id })
      .from(reviewRows)
      .innerJoin(reviewColumns, eq(reviewColumns.reviewId, reviewRows.reviewId))
      .where(
        and(
          eq(reviewRows.reviewId, reviewId),
          sql`${cellIdSql(reviewRows.id, reviewColumns.id)} = ${cellId}`,
        ),
      )
      .limit(1)
    if (unwritten) {
      await addMissingCells(tx, reviewId, { rowIds: [unwritten.rowId] })
      ;[found] = await read()
    }
  }
  if (!found) throw notFound('Review cell')
  return found
}

/**
 * Sets (or, with null, removes) a lawyer's override of a cell, its original answer kept
 * (audited 'review.cell.override', without the answer). 400 `bad_review_column` when the answer
 * is not of the column's type; 404 for the review or cell.
 */
export async function overrideCell(
  db: Db,
  principal: Principal,
  reviewId: string,
  cellId: string,
  override: { answer: ReviewAnswer | null; note: string | null } | null,
) {
  return withTenant(db, principal, async (tx) => {
    const { answerType } = await findCell(tx, reviewId, cellId)
    if (override?.answer && override.answer.type !== answerType)
      throw new AppError(
        'bad_review_column',
        `This column's answers are of type ${answerType}, not ${override.answer.type}`,
      )
    const stored = override
      ? { ...override, by: principal.userId, at: new Date().toISOString() }
      : null
    const [row] = await tx
      .update(reviewCells)
      .set({ override: stored, updatedAt: new Date() })
      .where(eq(reviewCells.id, cellId))
      .returning()
    await recordAudit(
      tx,
      principal,
      override ? 'review.cell.override' : 'review.cell.override_removed',
      { type: 'review', id: reviewId },
      { cellId },
    )
    return toCell(row!)
  })
}

/** Marks a cell verified by the principal, or not (audited 'review.cell.verify'); 404 otherwise. */
export async function verifyCell(
  db: Db,
  principal: Principal,
  reviewId: string,
  cellId: string,
  verified: boolean,
) {
  return withTenant(db, principal, async (tx) => {
    await findCell(tx, reviewId, cellId)
    const [row] = await tx
      .update(reviewCells)
      .set({
        verified,
        verifiedBy: verified ? principal.userId : null,
        verifiedAt: verified ? new Date() : null,
        updatedAt: new Date(),
      })
      .where(eq(reviewCells.id, cellId))
      .returning()
    await recordAudit(
      tx,
      principal,
      'review.cell.verify',
      { type: 'review', id: reviewId },
      { cellId, verified },
    )
    return toCell(row!)
  })
}

/**
 * Puts one cell, or every cell of one column, back to pending and unchecked (a cell being
 * answered is left to its fill) and queues the fill (audited 'review.cell.retry' / 'review.column.retry'). Answers
 * the fill job. 404 for the review, cell or column.
 */
export async function retryCells(
  deps: ReviewDeps,
  principal: Principal,
  reviewId: string,
  target: { cellId: string } | { columnId: string },
): Promise<FillJob> {
  return withTenant(deps.db, principal, async (tx) => {
    if ('cellId' in target) await findCell(tx, reviewId, target.cellId)
    else {
      await findReview(tx, reviewId)
      const [column] = await tx
        .select({ id: reviewColumns.id })
        .from(reviewColumns)
        .where(and(eq(reviewColumns.id, target.columnId), eq(reviewColumns.reviewId, reviewId)))
      if (!column) throw notFound('Review column')
    }
    await tx
      .update(reviewCells)
      .set({
        state: 'pending',
        reason: null,
        answer: null,
        citations: [],
        answeredAt: null,
        // A check was of the answer being replaced.
        verified: false,
        verifiedBy: null,
        verifiedAt: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(reviewCells.reviewId, reviewId),
          'cellId' in target
            ? eq(reviewCells.id, target.cellId)
            : eq(reviewCells.columnId, target.columnId),
          sql`${reviewCells.state} <> 'running'`,
        ),
      )
    await recordAudit(
      tx,
      principal,
      'cellId' in target ? 'review.cell.retry' : 'review.column.retry',
      { type: 'review', id: reviewId },
      target,
    )
    return queueFill(deps, tx, principal, reviewId)
  })
}

/**
 * What an export of review `reviewId` needs before it streams: its name and its columns, left to
 * right; 404 `review_not_found` (thrown before any byte is sent).
 */
export async function readExportColumns(db: Db, principal: Principal, reviewId: string) {
  return withTenant(db, principal, async (tx) => {
    const review = await findReview(tx, reviewId)
    const columns = await tx
      .select({ id: reviewColumns.id, label: reviewColumns.label })
      .from(reviewColumns)
      .where(eq(reviewColumns.reviewId, reviewId))
      .orderBy(asc(reviewColumns.position))
    return { name: review.name, columns }
  })
}

/**
 * HTTP routes of reviews (issue 44, decision 0137): reviews (list, create, read, rename,
 * delete), their columns (list, add, remove, retry), their cells (paged in grid order, override,
 * verify, retry) and the preset columns. Logic in service.ts; the fill is a job
 * (review-fill-job.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { PassThrough, Readable } from 'node:stream'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { FeatureContext } from '../../services'
import { OrgParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { jobSchemaOf } from '../../job-schema'
import { streamResponse } from '../../http/stream-responses'
import { problemResponse } from '../../http/problem-responses'
import { AppError } from '../../errors/app-error'
import { fileHeaders } from '../../media/file-download'
import { exportReviewCsv } from './export-review'
import { writeReviewXlsx } from './export-review-xlsx'
import { REVIEW_PRESETS } from './review-presets'
import {
  CellParams,
  CellQuery,
  ColumnInput,
  ColumnParams,
  CreateReviewBody,
  OverrideBody,
  RenameBody,
  Review,
  ReviewCell,
  ReviewColumn,
  ReviewParams,
  ReviewPreset,
  ReviewSummary,
  VerifyBody,
} from './schemas'
import {
  addColumn,
  createReview,
  deleteReview,
  listCells,
  listColumns,
  listReviews,
  overrideCell,
  readExportColumns,
  readReview,
  removeColumn,
  renameReview,
  retryCells,
  verifyCell,
} from './service'

const tags = ['reviews']
const FillJob = jobSchemaOf('review-fill')
const member = { minRole: 'member' } as const

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
/** Seconds a refused XLSX export is told to wait (a 10,000-row export takes under a minute). */
const EXPORT_RETRY_AFTER_S = 30

/** A file name from a review's name: letters, digits, single spaces and dashes only. */
const fileNameOf = (name: string, extension: string) =>
  `${
    name
      .replace(/[^\p{L}\p{N}-]+/gu, ' ')
      .trim()
      .slice(0, 80) || 'review'
  }.${extension}`

export const reviewRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  /** Organisations whose XLSX export is being written (one at a time each, export_busy). */
  const xlsxExports = new Set<string>()
  const deps = { db: services.db, jobs: services.jobs }
  const base = '/orgs/:orgId/reviews'

  app.get(
    base,
    {
      schema: {
        operationId: 'listReviews',
        tags,
        params: OrgParams,
        querystring: PageQuery,
        response: { 200: pageOf(ReviewSummary) },
      },
      config: member,
    },
    (req) => listReviews(deps.db, principalOf(req), req.query),
  )

  app.get(
    `${base}/presets`,
    {
      schema: {
        operationId: 'listReviewPresets',
        tags,
        description:
          'The preset columns: each key term, each CUAD clause category and each deal-sheet line, answered offline from the local analysis',
        params: OrgParams,
        response: { 200: z.object({ items: z.array(ReviewPreset) }) },
      },
      config: member,
    },
    () => ({
      items: REVIEW_PRESETS.map(({ key, label, answerType }) => ({ key, label, answerType })),
    }),
  )

  app.post(
    base,
    {
      schema: {
        operationId: 'createReview',
        tags,
        description:
          "Creates a review of documents (a selection, or every document of an app) and columns (presets or questions with an answer type), and queues its fill (`fillJob`, null without cells): cells stream in as `review_cells` realtime messages. 404 for a document or app that is not the organisation's (or, for an app's review, a document of another app); 400 `bad_review_column` for an unknown preset or a yes/no column whose question is not one.",
        params: OrgParams,
        body: CreateReviewBody,
        response: { 201: Review.extend({ fillJob: FillJob.nullable() }) },
      },
      config: member,
    },
    async (req, reply) =>
      reply.status(201).send(await createReview(deps, principalOf(req), req.body)),
  )

  app.get(
    `${base}/:reviewId`,
    {
      schema: {
        operationId: 'getReview',
        tags,
        params: ReviewParams,
        response: { 200: Review },
      },
      config: member,
    },
    (req) => readReview(deps.db, principalOf(req), req.params.reviewId),
  )

  app.patch(
    `${base}/:reviewId`,
    {
      schema: {
        operationId: 'renameReview',
        tags,
        description: 'Renames a review: its creator or an admin (403 otherwise).',
        params: ReviewParams,
        body: RenameBody,
        response: { 200: Review },
      },
      config: member,
    },
    (req) => renameReview(deps.db, principalOf(req), req.params.reviewId, req.body.name),
  )

  app.delete(
    `${base}/:reviewId`,
    {
      schema: {
        operationId: 'deleteReview',
        tags,
        description:
          'Deletes a review with its columns and cells, and stops its fill: its creator or an admin (403 otherwise). The documents stay.',
        params: ReviewParams,
        response: { 204: z.null() },
      },
      config: member,
    },
    async (req, reply) => {
      await deleteReview(deps.db, principalOf(req), req.params.reviewId)
      return reply.status(204).send(null)
    },
  )

  app.get(
    `${base}/:reviewId/columns`,
    {
      schema: {
        operationId: 'listReviewColumns',
        tags,
        params: ReviewParams,
        response: { 200: pageOf(ReviewColumn) },
      },
      config: member,
    },
    (req) => listColumns(deps.db, principalOf(req), req.params.reviewId),
  )

  app.post(
    `${base}/:reviewId/columns`,
    {
      schema: {
        operationId: 'addReviewColumn',
        tags,
        description:
          'Adds a column at the right, with a pending cell per row, and queues the fill (`fillJob`, null without rows). 413 `review_too_large` past 50 columns.',
        params: ReviewParams,
        body: ColumnInput,
        response: { 201: z.object({ column: ReviewColumn, fillJob: FillJob.nullable() }) },
      },
      config: member,
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await addColumn(deps, principalOf(req), req.params.reviewId, req.body)),
  )

  app.delete(
    `${base}/:reviewId/columns/:columnId`,
    {
      schema: {
        operationId: 'removeReviewColumn',
        tags,
        params: ColumnParams,
        response: { 204: z.null() },
      },
      config: member,
    },
    async (req, reply) => {
      await removeColumn(deps.db, principalOf(req), req.params.reviewId, req.params.columnId)
      return reply.status(204).send(null)
    },
  )

  app.post(
    `${base}/:reviewId/columns/:columnId/retry`,
    {
      schema: {
        operationId: 'retryReviewColumn',
        tags,
        description:
          "Answers a column's cells again (those being answered are left to their fill): 202 with the fill job.",
        params: ColumnParams,
        response: { 202: FillJob },
      },
      config: member,
    },
    async (req, reply) =>
      reply.status(202).send(
        await retryCells(deps, principalOf(req), req.params.reviewId, {
          columnId: req.params.columnId,
        }),
      ),
  )

  app.get(
    `${base}/:reviewId/cells`,
    {
      schema: {
        operationId: 'listReviewCells',
        tags,
        description:
          "A page of the review's cells in grid order (row by row, each row's cells left to right), filtered by column, row or state: for a grid of c columns, rows r…r+n are `offset=r*c&limit=n*c`. A cell shows its `override` when it has one, else its `answer` (answered cells only; an unverified cell has none).",
        params: ReviewParams,
        querystring: CellQuery,
        response: { 200: pageOf(ReviewCell) },
      },
      config: member,
    },
    (req) => listCells(deps.db, principalOf(req), req.params.reviewId, req.query),
  )

  app.get(
    `${base}/:reviewId/export`,
    {
      schema: {
        operationId: 'exportReview',
        tags,
        description:
          "The grid as a file, streamed: one row per document with each column's shown answer (the override, else an answered cell's answer, else its state). XLSX (default): typed cells (dates as dates, periods in months, amounts as numbers with the currency in the note), each answer's citations as the cell's note (the page of a scan read by OCR, offsets and the quote cut at 200 characters), and a second sheet of every citation (page, offsets, whole quote); one XLSX export at a time per organisation, else 429 export_busy with Retry-After. CSV: per column its answer and its citations; values starting with = + - @ tab, carriage return or a quote are prefixed with a quote.",
        params: ReviewParams,
        querystring: z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') }),
        produces: ['text/csv', XLSX_TYPE],
        response: {
          200: streamResponse('The file (an attachment)', ['text/csv', XLSX_TYPE]),
          429: problemResponse(
            'export_busy: another XLSX export of the organisation is being written (one at a time); Retry-After gives seconds to wait',
          ),
        },
      },
      config: member,
    },
    async (req, reply) => {
      const principal = principalOf(req)
      const { reviewId } = req.params
      const { name, columns } = await readExportColumns(deps.db, principal, reviewId)
      if (req.query.format === 'csv')
        return fileHeaders(reply, {
          contentType: 'text/csv; charset=utf-8',
          fileName: fileNameOf(name, 'csv'),
        }).send(Readable.from(exportReviewCsv(deps.db, principal, reviewId, columns)))
      // exceljs holds a sheet's notes until the sheet is written (decision 0137): one XLSX
      // export at a time per organisation (in this process) bounds that memory.
      if (xlsxExports.has(principal.orgId))
        throw new AppError(
          'export_busy',
          'Another spreadsheet export of this organisation is being written. Try again in a minute, or export as CSV.',
          { 'retry-after': String(EXPORT_RETRY_AFTER_S) },
        )
      xlsxExports.add(principal.orgId)
      const out = new PassThrough()
      const stop = new AbortController()
      // A client gone mid-download (a closed tab, a cancelled download) destroys `out` with
      // neither 'finish' nor 'error', on which exceljs waits: the slot is freed when `out`
      // closes, and the writer stops reading the review at its next batch.
      out.once('close', () => {
        stop.abort()
        xlsxExports.delete(principal.orgId)
      })
      writeReviewXlsx(deps.db, principal, reviewId, columns, out, stop.signal)
        .catch((error: unknown) => {
          if (stop.signal.aborted) return
          req.log.error({ err: error }, 'review export failed')
          out.destroy(error instanceof Error ? error : new Error('review export failed'))
        })
        .finally(() => xlsxExports.delete(principal.orgId))
      return fileHeaders(reply, {
        contentType: XLSX_TYPE,
        fileName: fileNameOf(name, 'xlsx'),
      }).send(out)
    },
  )

  app.put(
    `${base}/:reviewId/cells/:cellId/override`,
    {
      schema: {
        operationId: 'overrideReviewCell',
        tags,
        description:
          "Sets a lawyer's answer for a cell (in the column's type; null answer: not in the document), kept beside the original; `override: null` removes it. Audited.",
        params: CellParams,
        body: OverrideBody,
        response: { 200: ReviewCell },
      },
      config: member,
    },
    (req) =>
      overrideCell(
        deps.db,
        principalOf(req),
        req.params.reviewId,
        req.params.cellId,
        req.body.override,
      ),
  )

  app.put(
    `${base}/:reviewId/cells/:cellId/verified`,
    {
      schema: {
        operationId: 'verifyReviewCell',
        tags,
        description: 'Marks a cell checked by the caller, or not. Audited.',
        params: CellParams,
        body: VerifyBody,
        response: { 200: ReviewCell },
      },
      config: member,
    },
    (req) =>
      verifyCell(
        deps.db,
        principalOf(req),
        req.params.reviewId,
        req.params.cellId,
        req.body.verified,
      ),
  )

  app.post(
    `${base}/:reviewId/cells/:cellId/retry`,
    {
      schema: {
        operationId: 'retryReviewCell',
        tags,
        description: 'Answers one cell again: 202 with the fill job.',
        params: CellParams,
        response: { 202: FillJob },
      },
      config: member,
    },
    async (req, reply) =>
      reply.status(202).send(
        await retryCells(deps, principalOf(req), req.params.reviewId, {
          cellId: req.params.cellId,
        }),
      ),
  )
}

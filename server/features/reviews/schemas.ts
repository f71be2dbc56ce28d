/**
 * The API shapes of reviews (issue 44, decision 0137): requests and answers of the routes, with
 * their limits. A grid client (TanStack Table + Virtual) reads a review (its columns and counts)
 * once, then pages its cells in grid order, `limit` = rows wanted × columns, `offset` = first row
 * × columns, and patches cells as `review_cells` realtime messages arrive.
 */
import { z } from 'zod'
import { OrgParams, AppId } from '../../http/params'
import { pageQuery } from '../../lists/list-kit'
import { AnswerType, ReviewAnswer, ReviewCitation } from './review-answer'

/** Most documents a review holds (the 10,000-document review). */
export const MAX_REVIEW_ROWS = 10_000
/** Most columns a review holds. */
export const MAX_REVIEW_COLUMNS = 50

export const CELL_STATES = [
  'pending',
  'running',
  'answered',
  'not_found',
  'failed',
  'unverified',
] as const
export const CellState = z.enum(CELL_STATES)
export type CellState = z.infer<typeof CellState>

export const ReviewParams = OrgParams.extend({
  reviewId: z.string().uuid({ message: 'Review id must be a UUID' }),
})
export const ColumnParams = ReviewParams.extend({
  columnId: z.string().uuid({ message: 'Column id must be a UUID' }),
})
export const CellParams = ReviewParams.extend({
  cellId: z.string().uuid({ message: 'Cell id must be a UUID' }),
})

const Name = z.string().trim().min(1).max(200)

export const ColumnInput = z
  .union([
    z.object({ preset: z.string().min(1).max(100).describe('A preset key (listReviewPresets)') }),
    z.object({
      question: z.string().trim().min(3).max(500),
      answerType: AnswerType,
      label: z.string().trim().min(1).max(200).optional().describe('Defaults to the question'),
    }),
  ])
  .describe('A preset column, or a question with its answer type')
export type ColumnInput = z.infer<typeof ColumnInput>

export const CreateReviewBody = z
  .object({
    name: Name,
    appId: AppId.optional().describe(
      "The app the review belongs to; an app-bound credential's own app when absent",
    ),
    rows: z.discriminatedUnion('source', [
      z.object({
        source: z.literal('selection'),
        documentIds: z.array(z.string().uuid()).min(1).max(MAX_REVIEW_ROWS),
      }),
      z
        .object({ source: z.literal('app') })
        .describe("Every document of the review's app, and those added to it before each fill"),
    ]),
    columns: z.array(ColumnInput).max(MAX_REVIEW_COLUMNS).default([]),
  })
  .refine((body) => body.rows.source !== 'app' || body.appId !== undefined, {
    message: 'A review of an app’s documents needs its appId',
    path: ['appId'],
  })
export type CreateReviewBody = z.infer<typeof CreateReviewBody>

export const ReviewColumn = z
  .object({
    id: z.string().uuid(),
    position: z.number().int(),
    label: z.string(),
    presetKey: z.string().nullable(),
    question: z.string().nullable(),
    answerType: AnswerType,
  })
  .meta({ id: 'ReviewColumn' })

export const ReviewSummary = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable(),
    name: z.string(),
    rowSource: z.enum(['selection', 'app']),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'ReviewSummary' })

export const CellCounts = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  running: z.number().int(),
  answered: z.number().int(),
  not_found: z.number().int(),
  failed: z.number().int(),
  unverified: z.number().int(),
})

export const Review = ReviewSummary.extend({
  rows: z.number().int().describe('Documents in the review'),
  columns: z.array(ReviewColumn),
  cells: CellCounts.describe('Cells by state'),
  fill: z
    .object({
      jobId: z.string().uuid(),
      status: z.string(),
      progress: z.number().describe('Answered share of the cells, 0..1'),
    })
    .nullable()
    .describe('The latest fill job (follow it on the realtime channel); null before any'),
}).meta({ id: 'Review' })

export const CellOverride = z
  .object({
    answer: ReviewAnswer.nullable().describe("The lawyer's answer; null: not in the document"),
    text: z.string().nullable().describe('`answer` as one line, as the grid and export show it'),
    note: z.string().max(2000).nullable(),
    by: z.string().nullable(),
    at: z.string(),
  })
  .meta({ id: 'ReviewCellOverride' })

export const ReviewCell = z
  .object({
    id: z.string().uuid(),
    rowId: z.string().uuid(),
    columnId: z.string().uuid(),
    documentId: z.string().uuid(),
    rowPosition: z.number().int(),
    columnPosition: z.number().int(),
    state: CellState,
    reason: z.string().nullable().describe('Why a cell is not_found, failed or unverified'),
    answer: ReviewAnswer.nullable().describe('Only on an answered cell; never an unverified one'),
    text: z
      .string()
      .nullable()
      .describe('`answer` as one line ("Yes", "6 months", "1500000 USD"), as the export writes it'),
    citations: z.array(ReviewCitation),
    override: CellOverride.nullable().describe('Shown instead of `answer`, which stays as it was'),
    verified: z.boolean(),
    verifiedBy: z.string().nullable(),
    verifiedAt: z.string().nullable(),
    answeredAt: z.string().nullable(),
  })
  .meta({ id: 'ReviewCell' })

export const CellQuery = pageQuery({ defaultLimit: 200, maxLimit: 1000 }).extend({
  columnId: z.string().uuid().optional().describe("Only this column's cells"),
  rowId: z.string().uuid().optional().describe("Only this row's cells"),
  state: CellState.optional(),
})
export type CellQuery = z.infer<typeof CellQuery>

export const OverrideBody = z.object({
  override: z
    .object({
      answer: ReviewAnswer.nullable().describe("In the column's answer type; null: not found"),
      note: z.string().trim().max(2000).nullable().default(null),
    })
    .nullable()
    .describe('null removes the override'),
})

export const VerifyBody = z.object({ verified: z.boolean() })

export const RenameBody = z.object({ name: Name })

export const ReviewPreset = z
  .object({ key: z.string(), label: z.string(), answerType: AnswerType })
  .meta({ id: 'ReviewPreset' })

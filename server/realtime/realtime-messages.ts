/**
 * The realtime channel's protocol (issue 42, decision 0125): every JSON text a client may send on
 * a realtime socket and every one the hub sends, as zod schemas keyed by their `type` (the map a
 * new message is added to). The hub parses what clients send with `RealtimeClientMessage`. A
 * `job` message carries a job as the API shows it, whose schema (server/job-schema.ts) is the
 * job catalogue's and so above this layer: here it is any object, and the feature that serves the
 * channel (server/features/realtime/realtime-server-message.ts) names the full union with the
 * catalogue's Job for the OpenAPI document, through which the web app learns both, as it learns
 * the problem codes (web/lib/api-schema.d.ts, `npm run api:types`).
 */
import { z } from 'zod'
import { REALTIME_TABLES } from './realtime-tables'

/**
 * The codes of an `error` message (the hub answers a message it cannot act on with one; the
 * socket stays open). Not problem codes: these never travel over HTTP.
 */
export const REALTIME_ERROR_CODES = [
  'bad_message',
  'table_not_allowed',
  'too_many_subscriptions',
  'too_many_follows',
  'job_not_found',
] as const

export type RealtimeErrorCode = (typeof REALTIME_ERROR_CODES)[number]

const TableName = z.string().max(200).describe('A table of the allow-list, as schema.table')

const JobId = z.string().uuid().describe('The id of a job of the organisation')

/** What a client sends, by `type`. */
export const REALTIME_CLIENT_MESSAGES = {
  subscribe: z
    .object({
      type: z.literal('subscribe'),
      table: TableName,
      appId: z.string().uuid().nullish().describe("Only this app's rows (a session's choice)"),
    })
    .describe("Send 'change' messages for a table's committed changes"),
  unsubscribe: z.object({ type: z.literal('unsubscribe'), table: TableName }),
  follow: z
    .object({ type: z.literal('follow'), jobId: JobId })
    .describe("Send a job's state now, then after each change until it ends ('job' messages)"),
  unfollow: z.object({ type: z.literal('unfollow'), jobId: JobId }),
} as const

/** Any message a client may send. */
export const RealtimeClientMessage = z
  .discriminatedUnion('type', [
    REALTIME_CLIENT_MESSAGES.subscribe,
    REALTIME_CLIENT_MESSAGES.unsubscribe,
    REALTIME_CLIENT_MESSAGES.follow,
    REALTIME_CLIENT_MESSAGES.unfollow,
  ])
  .meta({ id: 'RealtimeClientMessage' })

export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessage>

/** What the hub sends, by `type` (a `job`'s job as any object here: see the module comment). */
export const REALTIME_SERVER_MESSAGES = {
  subscribed: z.object({
    type: z.literal('subscribed'),
    table: z.enum(Object.keys(REALTIME_TABLES) as [string, ...string[]]),
    appId: z.string().nullable(),
  }),
  unsubscribed: z.object({
    type: z.literal('unsubscribed'),
    table: z.enum(Object.keys(REALTIME_TABLES) as [string, ...string[]]),
  }),
  change: z
    .object({
      type: z.literal('change'),
      table: z.enum(Object.keys(REALTIME_TABLES) as [string, ...string[]]),
      op: z.enum(['insert', 'update', 'delete']),
      appId: z.string().nullable(),
      count: z.number().int().positive(),
      ids: z.array(z.string()).nullable().describe('The changed rows; null past 100'),
      rows: z
        .array(z.record(z.string(), z.unknown()))
        .optional()
        .describe('The rows read back, for up to 20 inserted or updated rows'),
    })
    .describe('One committed statement changed rows of a subscribed table'),
  job: z
    .object({ type: z.literal('job'), job: z.object({ id: z.string() }).loose() })
    .describe(
      "A followed job as getJob answers it: on follow, then after each change; one in a final state (succeeded, failed, cancelled) is the follow's last",
    ),
  review_cells: z
    .object({
      type: z.literal('review_cells'),
      reviewId: z.string().uuid(),
      rowId: z.string().uuid().describe('The row (document) whose cells these are'),
      cells: z.array(
        z.object({
          id: z.string().uuid(),
          columnId: z.string().uuid(),
          state: z.enum(['answered', 'not_found', 'failed', 'unverified']),
        }),
      ),
      done: z.number().int().min(0).describe('Cells of the review no longer pending'),
      total: z.number().int().min(0),
    })
    .describe(
      "A review's fill wrote these cells (read them with listReviewCells): sent to every socket of the organisation (of the review's app, for an app-bound credential) as each document's cells are committed",
    ),
  error: z.object({
    type: z.literal('error'),
    code: z.enum(REALTIME_ERROR_CODES),
    detail: z.string(),
    jobId: z.string().optional().describe('The job a job_not_found or too_many_follows is about'),
  }),
} as const

/** Any message the hub sends, as the hub's code builds it. */
export type RealtimeServerMessage = {
  [K in keyof typeof REALTIME_SERVER_MESSAGES]: z.infer<(typeof REALTIME_SERVER_MESSAGES)[K]>
}[keyof typeof REALTIME_SERVER_MESSAGES]

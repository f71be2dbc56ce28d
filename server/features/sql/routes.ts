/**
 * HTTP routes of the SQL runner (issue 30, decision 0061), for owners and admins: run a read-only
 * query over the organisation's sql_* views, the same as a CSV file, and the caller's last
 * queries.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { fileHeaders } from '../../media/file-download'
import { OrgParams } from '../../http/params'
import { SQL_MAX_LENGTH, SQL_ROW_CAP } from './check-sql'
import { SQL_MAX_PLAN_COST } from './run-sql'
import { SQL_STATEMENT_TIMEOUT_MS } from './sql-runner-role'
import {
  SANDBOX_LIMITS,
  SANDBOX_MAX_RESULT_CHARS,
  SANDBOX_MAX_ROWS,
  SqlSandboxes,
} from './sql-sandboxes'
import { exportQueryCsv, runQuery } from './service'
import { listSqlHistory } from './sql-history'
import { SQL_VIEWS } from './sql-views'
import type { FeatureContext } from '../../services'

const SqlBody = z.object({
  sql: z
    .string()
    .max(SQL_MAX_LENGTH)
    .describe(
      `One SELECT (or WITH … SELECT) over the views ${SQL_VIEWS.join(', ')}, at most ${SQL_MAX_LENGTH} characters`,
    ),
})

const SqlResultSchema = z
  .object({
    columns: z
      .array(z.object({ name: z.string(), type: z.string().describe('PostgreSQL type name') }))
      .describe('The result’s columns in order'),
    rows: z
      .array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])))
      .describe(`At most ${SQL_ROW_CAP} rows, cells in column order`),
    rowCount: z.number().int(),
    truncated: z.boolean().describe(`Whether the query had more than ${SQL_ROW_CAP} rows`),
    rowCap: z.number().int(),
    cost: z.number().describe(`The planner’s estimate (refused over ${SQL_MAX_PLAN_COST})`),
    durationMs: z.number().int(),
  })
  .meta({ id: 'SqlResult' })

const SqlHistoryEntrySchema = z
  .object({
    id: z.string().uuid(),
    sql: z.string(),
    rowCount: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable().describe('Why it was refused or failed; null when it ran'),
    createdAt: z.string(),
  })
  .meta({ id: 'SqlHistoryEntry' })

const RUN_DESCRIPTION = `Runs one read-only query. Refused with 400 sql_refused unless it is a single SELECT over the sql_* views using allow-listed functions; 422 sql_too_costly when the planner's cost is over ${SQL_MAX_PLAN_COST}; stopped with 422 sql_timeout after ${SQL_STATEMENT_TIMEOUT_MS / 1000} s; at most ${SQL_ROW_CAP} rows. 422 sql_out_of_memory when it needs more memory than allowed (${SANDBOX_LIMITS.maxMemoryBytes / 1024 ** 2} MB on the embedded database, 1 GB for one value) or its answer is over ${SANDBOX_MAX_RESULT_CHARS / 1024 ** 2} million characters. On the embedded database it runs in a sandbox holding only the organisation's rows: 422 sql_too_large past ${SANDBOX_MAX_ROWS} rows, 503 sql_busy with Retry-After when every sandbox is in use or the caller already runs a query in another organisation's sandbox (one person, one sandbox at a time). Recorded in the caller's history.`

/**
 * The SQL runner's routes. On embedded PGlite, which cannot interrupt a statement, queries run in
 * sandboxes (sql-sandboxes.ts, decision 0091), made here and closed with the app; on PostgreSQL
 * they run on the database itself.
 */
export const sqlRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db }, databaseKind, sqlSandboxTemplate },
) => {
  const sandboxes =
    databaseKind === 'pglite'
      ? new SqlSandboxes(db, { templateFile: sqlSandboxTemplate })
      : undefined
  if (sandboxes && sqlSandboxTemplate) {
    // Made when the app is ready, so no query waits for its initdb.
    app.addHook('onReady', async () => {
      sandboxes.prepare().catch((error: unknown) => {
        app.log.warn({ err: error }, 'the SQL runner could not prepare its sandbox database')
      })
    })
  }
  app.addHook('onClose', async () => {
    await sandboxes?.close()
  })
  app.post(
    '/orgs/:orgId/sql',
    {
      schema: {
        operationId: 'runSql',
        tags: ['sql'],
        description: RUN_DESCRIPTION,
        params: OrgParams,
        body: SqlBody,
        response: { 200: SqlResultSchema },
      },
      // It changes no data (the history is the caller's own record): a read, as a search is.
      config: { minRole: 'admin', scope: 'read', app: 'organisation' },
    },
    (req) => runQuery(db, principalOf(req), req.body.sql, sandboxes),
  )

  app.post(
    '/orgs/:orgId/sql/csv',
    {
      schema: {
        operationId: 'exportSqlCsv',
        tags: ['sql'],
        description: `${RUN_DESCRIPTION} Answers the rows as a CSV file: a header of the column names, every value quoted, inner quotes doubled, values starting with = + - @ tab, carriage return or a quote prefixed with a quote.`,
        params: OrgParams,
        body: SqlBody,
        produces: ['text/csv'],
        response: { 200: z.string().describe('The CSV file (an attachment)') },
      },
      config: { minRole: 'admin', scope: 'read', app: 'organisation' },
    },
    async (req, reply) => {
      const csv = await exportQueryCsv(db, principalOf(req), req.body.sql, sandboxes)
      const stamp = new Date().toISOString().slice(0, 10)
      return fileHeaders(reply, {
        contentType: 'text/csv; charset=utf-8',
        fileName: `query-${stamp}.csv`,
      }).send(csv)
    },
  )

  app.get(
    '/orgs/:orgId/sql/history',
    {
      schema: {
        operationId: 'listSqlHistory',
        tags: ['sql'],
        description:
          'The caller’s last 20 queries in the organisation, newest first, with their outcome, and the views a query may read.',
        params: OrgParams,
        response: {
          200: z.object({
            items: z.array(SqlHistoryEntrySchema),
            views: z.array(z.string()).describe('The sql_* views a query may read'),
          }),
        },
      },
      config: { minRole: 'admin', app: 'organisation' },
    },
    async (req) => ({ items: await listSqlHistory(db, principalOf(req)), views: [...SQL_VIEWS] }),
  )
}

/**
 * Runs a query of the SQL runner (issue 30, decisions 0061, 0079, 0091): checked by the parser
 * allow-list (check-sql.ts), then in one READ ONLY transaction as the role `lexdesk_sql`, refused
 * before it runs when the planner's estimate of its cost in the worst case (every LIMIT's input
 * run to its end: worstPlanCost) is over SQL_MAX_PLAN_COST, and stopped at
 * SQL_STATEMENT_TIMEOUT_MS. On PostgreSQL it runs in the application's database, confined to the
 * principal's organisation by RLS and stopped by `statement_timeout`. On PGlite, which cannot
 * interrupt a statement, it runs in the organisation's sandbox (sql-sandboxes.ts: a thread of its
 * own holding only the organisation's rows of the views), which the cap stops by ending the thread.
 */
import type { Db } from '../../db/client'
import type { PgliteThread } from '../../db/pglite-thread'
import type { Principal, Tx } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { checkSql, SQL_ROW_CAP, type CheckedSql } from './check-sql'
import { SQL_FUNCTIONS } from './sql-allow-list'
import { enterSqlRunner, SQL_STATEMENT_TIMEOUT_MS } from './sql-runner-role'
import { SandboxTimeout } from './sql-sandbox'
import {
  isOutOfMemory,
  SANDBOX_LIMITS,
  SANDBOX_MAX_RESULT_CHARS,
  type SqlSandboxes,
} from './sql-sandboxes'
import { SQL_VIEWS } from './sql-views'

/**
 * The highest planner cost (PostgreSQL's units: 1 = reading one page in sequence, 0.01 = one row
 * processed) a query may have, for all its rows, not only the first SQL_ROW_CAP. Measured on
 * PGlite on this machine (decision 0061): counting the 9 million rows of a cross join of two
 * 3,000-row views costs 135,000 and ran 4.5 s, a string_agg over them 10.5 s; at cost 27,000
 * (1.8 million rows) 0.9 s and 2.1 s. So 25,000 keeps a query the planner judges well near 2 s;
 * it refuses at once, with the reason, what the time cap would only stop after 5 s.
 */
export const SQL_MAX_PLAN_COST = 25_000

/** One cell of a result: numbers and booleans as they are, everything else as text. */
export type SqlCell = string | number | boolean | null

/** The answer to a query. */
export interface SqlResult {
  /** Each column's name and PostgreSQL type (`format_type`, e.g. `timestamp with time zone`). */
  columns: { name: string; type: string }[]
  /** At most SQL_ROW_CAP rows, cells in column order. */
  rows: SqlCell[][]
  rowCount: number
  /** Whether the query had more rows than SQL_ROW_CAP (the rest are not shown). */
  truncated: boolean
  rowCap: number
  /** The planner's estimate of the query's cost in the worst case (worstPlanCost). */
  cost: number
  /** Milliseconds from the start of the transaction to the last row. */
  durationMs: number
}

interface RawResult {
  rows: unknown[][]
  fields: { name: string; dataTypeID: number }[]
}

/** Runs one statement of the query's transaction, rows as arrays (duplicate names kept). */
type QueryArrays = (text: string, params?: unknown[]) => Promise<RawResult>

/** Runs `text` on the transaction's own connection with rows as arrays (duplicate names kept). */
async function queryArrays(tx: Tx, text: string, params: unknown[] = []): Promise<RawResult> {
  const client = (tx as unknown as { session: { client: unknown } }).session.client
  const onThread = typeof (client as { rollback?: unknown }).rollback === 'function'
  if (onThread) {
    const thread = client as { query: PgliteThread['query'] }
    return (await thread.query(text, params, { rowMode: 'array' })) as unknown as RawResult
  }
  const pg = client as { query: (config: object) => Promise<RawResult> }
  return pg.query({ text, values: params, rowMode: 'array' })
}

/** bigint and numeric: as text, so no digit is lost to a JavaScript number on either driver. */
const EXACT_TYPES = new Set([20, 1700])

function toCell(value: unknown, typeId: number): SqlCell {
  if (value === null || value === undefined) return null
  if (EXACT_TYPES.has(typeId)) return String(value)
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') {
    return value
  }
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Date) return value.toISOString()
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`
  return JSON.stringify(value)
}

/** SQLSTATEs of a query's own mistakes (PostgreSQL appendix A), answered with its message. */
const QUERY_ERROR = /^(21|22|42)/

/**
 * Checks and runs `text` for `principal`: in the organisation's sandbox when `sandboxes` is given
 * (embedded PGlite), else in the application's database (PostgreSQL).
 * @throws AppError `sql_refused` (400) when the parser check refuses it or the database refuses a
 *   read (a privilege it lacks); `sql_too_costly` (422) when its plan costs more than
 *   SQL_MAX_PLAN_COST; `sql_timeout` (422) when it ran past SQL_STATEMENT_TIMEOUT_MS and was
 *   stopped; `sql_failed` (400) when the database reports a mistake of the query (an unknown
 *   column, a division by zero); `sql_out_of_memory` (422) when it needed more memory than the
 *   database allows a value (1 GB) or the sandbox has (sql-sandboxes.ts SANDBOX_LIMITS), or its
 *   answer is over SANDBOX_MAX_RESULT_CHARS characters; `sql_too_large` (422) or `sql_busy` (503)
 *   when no sandbox can take it (sql-sandboxes.ts); `outside_app_scope` (403) for a principal
 *   confined to one app
 */
export async function runSql(
  db: Db,
  principal: Principal,
  text: string,
  sandboxes?: SqlSandboxes,
): Promise<SqlResult> {
  if (principal.appId) {
    throw new AppError(
      'outside_app_scope',
      'The SQL runner reads the whole organisation: use a credential that is not limited to one app.',
    )
  }
  const checked = await checkSql(text)
  try {
    if (sandboxes) {
      // Sandboxes are shared per person: a user's id, else the credential's (decision 0108).
      const person = principal.userId ?? principal.credentialId ?? `org:${principal.orgId}`
      const caller = { orgId: principal.orgId, person }
      return await sandboxes.run(caller, SQL_STATEMENT_TIMEOUT_MS, async (sandbox) => {
        const started = performance.now()
        // The sandbox holds nothing but the organisation's rows; the role and read-only
        // transaction keep its catalog and settings as they were all the same.
        await sandbox.exec('BEGIN READ ONLY; SET LOCAL ROLE lexdesk_sql')
        try {
          return await runChecked(
            (query, params) =>
              sandbox.query(query, params, 'array', SANDBOX_MAX_RESULT_CHARS) as Promise<RawResult>,
            checked,
            started,
          )
        } finally {
          if (!sandbox.closed) await sandbox.exec('ROLLBACK')
        }
      })
    }
    const started = performance.now()
    return await db.transaction(async (tx) => {
      // Read only from the start, so no statement of the transaction can write; the role and
      // the organisation in the same statement of ours, before the query (decision 0061).
      await tx.execute(enterSqlRunner(principal.orgId))
      return runChecked((query, params) => queryArrays(tx, query, params), checked, started)
    })
  } catch (error) {
    throw databaseProblem(error)
  }
}

/**
 * Runs a checked query in a transaction already confined to the runner's role: refuses function
 * fields and a plan over the cost cap, runs it and names its columns' types. `started` is
 * performance.now() at the transaction's start.
 */
async function runChecked(
  query: QueryArrays,
  { text, fields }: CheckedSql,
  started: number,
): Promise<SqlResult> {
  await refuseFunctionFields(query, fields)
  const plan = await query(`EXPLAIN (FORMAT JSON) ${text}`)
  const cost = planCost(plan.rows[0]?.[0])
  if (cost > SQL_MAX_PLAN_COST) {
    throw new AppError(
      'sql_too_costly',
      `The planner estimates this query's cost, run to its end, at ${Math.round(cost).toLocaleString('en')}, over the limit of ${SQL_MAX_PLAN_COST.toLocaleString('en')}. Filter, aggregate fewer rows, or avoid joins without a condition.`,
    )
  }
  const result = await query(text)
  const ids = [...new Set(result.fields.map((f) => f.dataTypeID))]
  const types = await query(
    'SELECT oid::int, format_type(oid, NULL) FROM pg_type WHERE oid = ANY($1::oid[])',
    [ids],
  )
  const typeName = new Map(types.rows.map(([oid, name]) => [Number(oid), String(name)]))
  const truncated = result.rows.length > SQL_ROW_CAP
  const rows = result.rows
    .slice(0, SQL_ROW_CAP)
    .map((row) => row.map((value, i) => toCell(value, result.fields[i]!.dataTypeID)))
  return {
    columns: result.fields.map((f) => ({
      name: f.name,
      type: typeName.get(f.dataTypeID) ?? 'unknown',
    })),
    rows,
    rowCount: rows.length,
    truncated,
    rowCap: SQL_ROW_CAP,
    cost,
    durationMs: Math.round(performance.now() - started),
  }
}

/**
 * Refuses a query reading `x.f` where `f` names a function outside the allow-list and no column
 * of the sql_* views: PostgreSQL would call `f(x)` (a function taking the row, `row_to_json` say),
 * past the parser check's list of functions.
 */
async function refuseFunctionFields(query: QueryArrays, fields: string[]): Promise<void> {
  if (fields.length === 0) return
  const named = await query(
    `SELECT f FROM unnest($1::text[]) AS f
     WHERE EXISTS (SELECT FROM pg_proc p WHERE p.proname = f)
       AND NOT EXISTS (SELECT FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                       WHERE c.relname = ANY($2::text[]) AND a.attname = f AND NOT a.attisdropped)`,
    [fields, [...SQL_VIEWS]],
  )
  const field = named.rows.map(([f]) => String(f)).find((f) => !SQL_FUNCTIONS.has(f))
  if (field !== undefined) {
    throw new AppError(
      'sql_refused',
      `"${field}" is the name of a function, which cannot be read as a column (x.${field} calls ${field}(x)). Rename the column.`,
    )
  }
}

/** One node of an EXPLAIN (FORMAT JSON) plan, with the fields read here. */
interface PlanNode {
  'Node Type': string
  'Total Cost': number
  'Plan Rows': number
  /** How the parent uses this node: Outer, Inner, InitPlan, SubPlan, Member, Subquery. */
  'Parent Relationship'?: string
  Plans?: PlanNode[]
}

/**
 * The cost of a plan in the worst case, every node run to its end as many times as the planner
 * expects it to start. A node's Total Cost is its cost run to the end, but a parent that may stop
 * early counts only part of it: a Limit, EXISTS or a scalar sub-select (an InitPlan or SubPlan
 * they count from the first rows), a semi join; and a filter that never matches makes them read
 * all of it. So a LIMIT deep in a subquery, a WITH, a lateral join or a sub-select hides the cost
 * under it from every node above, the cap's old blind spot. Here, above its own Total Cost, a
 * node adds what its inputs cost beyond what it counted of them:
 * - under a Limit, its input's worst cost instead of the Limit's;
 * - an InitPlan or SubPlan, its worst cost once, or for a SubPlan once per row of the node (the
 *   larger of its rows and its inputs'), over what the node counted (not known: counted again);
 * - the inner side of a nested loop, its worst cost once per row of the outer side, over what
 *   the loop counted of it (its Total Cost less the outer side's), unless it is a Materialize,
 *   which runs its input once and then reads the rows it kept;
 * - any other input (run once: hash and merge join sides, appends), its worst over its Total.
 */
function worstPlanCost(node: PlanNode): number {
  const own = node['Total Cost']
  const inputs = node.Plans ?? []
  const rows = Math.max(node['Plan Rows'], ...inputs.map((input) => input['Plan Rows']))
  const outer = inputs.find((input) => input['Parent Relationship'] === 'Outer')
  let worst = own
  for (const input of inputs) {
    const inputWorst = worstPlanCost(input)
    const relation = input['Parent Relationship']
    if (relation === 'InitPlan') worst += inputWorst
    else if (relation === 'SubPlan') worst += inputWorst * rows
    else if (node['Node Type'] === 'Limit' && relation === 'Outer') {
      worst += Math.max(0, inputWorst - own)
    } else if (
      node['Node Type'] === 'Nested Loop' &&
      relation === 'Inner' &&
      input['Node Type'] !== 'Materialize' &&
      outer
    ) {
      const counted = own - outer['Total Cost']
      worst += Math.max(0, inputWorst * outer['Plan Rows'] - counted)
    } else worst += Math.max(0, inputWorst - input['Total Cost'])
  }
  return worst
}

/** The worst-case cost (worstPlanCost) of the plan that EXPLAIN (FORMAT JSON) answered. */
function planCost(explained: unknown): number {
  const document = (typeof explained === 'string' ? JSON.parse(explained) : explained) as {
    Plan: PlanNode
  }[]
  return worstPlanCost(document[0]!.Plan)
}

/** The problem to answer for an error of the query's transaction (AppErrors pass through). */
function databaseProblem(error: unknown): unknown {
  if (error instanceof AppError) return error
  if (error instanceof SandboxTimeout) return timeoutProblem()
  if ((error as { resultTooLarge?: unknown } | null)?.resultTooLarge === true) {
    return new AppError(
      'sql_out_of_memory',
      `The query's answer is larger than the SQL runner hands back (${(SANDBOX_MAX_RESULT_CHARS / 1024 ** 2).toLocaleString('en')} million characters). Select fewer or shorter columns, or aggregate.`,
    )
  }
  if (isOutOfMemory(error)) return memoryProblem()
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code !== 'string' || typeof message !== 'string') return error
  if (code === '57014') return timeoutProblem()
  if (code === '42501' || code === '25006') {
    return new AppError('sql_refused', `The database refused the query: ${message}.`)
  }
  if (QUERY_ERROR.test(code)) return new AppError('sql_failed', `The query failed: ${message}.`)
  return error
}

/**
 * A query that ran out of memory (decision 0108): PostgreSQL's own limit of a value (1 GB,
 * 54000) or its `out of memory` (53200), on PGlite at the sandbox's cap, where the sandbox is
 * replaced. Both are the query's doing, so a 422 like the other limits, not a 500.
 */
function memoryProblem(): AppError {
  return new AppError(
    'sql_out_of_memory',
    `The query needed more memory than the SQL runner allows (${SANDBOX_LIMITS.maxMemoryBytes / 1024 ** 2} MB on the embedded database, 1 GB for one value) and was stopped. Avoid building long values from a whole view, such as replace() over a string_agg().`,
  )
}

function timeoutProblem(): AppError {
  return new AppError(
    'sql_timeout',
    `The query ran longer than ${SQL_STATEMENT_TIMEOUT_MS / 1000} s and was stopped.`,
  )
}

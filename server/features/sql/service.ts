/**
 * The SQL runner's service (issue 30, decision 0061): runs a query (run-sql.ts) and records it,
 * or its refusal, in the person's history (sql-history.ts); and the same result as CSV.
 */
import type { Db } from '../../db/client'
import type { Principal } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { csvLine } from '../../http/csv-line'
import { runSql, type SqlResult } from './run-sql'
import { recordSqlQuery } from './sql-history'
import type { SqlSandboxes } from './sql-sandboxes'

/**
 * Runs `text` for `principal` and records it in the history with its row count and time, or
 * with the problem's detail when it is refused or fails (the problem is then thrown as it was).
 * Errors that are not the query's fault (the database stopped, say) are not recorded.
 * `sandboxes`: those of embedded PGlite, where the query runs (run-sql.ts); none on PostgreSQL.
 */
export async function runQuery(
  db: Db,
  principal: Principal,
  text: string,
  sandboxes?: SqlSandboxes,
): Promise<SqlResult> {
  let result: SqlResult
  try {
    result = await runSql(db, principal, text, sandboxes)
  } catch (error) {
    if (error instanceof AppError && error.code.startsWith('sql_')) {
      await recordSqlQuery(db, principal, { sql: text, error: error.detail })
    }
    throw error
  }
  await recordSqlQuery(db, principal, {
    sql: text,
    rowCount: result.rowCount,
    durationMs: result.durationMs,
  })
  return result
}

/**
 * Runs `text` as runQuery does and answers its result as CSV (RFC 4180 with a header of the
 * column names, values quoted and formula-neutralised: server/http/csv-line.ts).
 */
export async function exportQueryCsv(
  db: Db,
  principal: Principal,
  text: string,
  sandboxes?: SqlSandboxes,
): Promise<string> {
  const result = await runQuery(db, principal, text, sandboxes)
  return [result.columns.map((c) => c.name), ...result.rows].map(csvLine).join('')
}

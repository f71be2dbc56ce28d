/**
 * PostgreSQL's own load tool on a tenant read transaction, for the server bench's limit (issue
 * 28, decision 0095): `pgbench -M prepared -c CLIENTS -j 2 -T SECONDS` over a script file of
 * BEGIN, the confining statement, the statement and COMMIT, sent as one pipeline (pgbench's
 * \startpipeline, as the instance corks them into one write: server/db/pipelined-reads.ts).
 */
import type { PgStatement } from '../server/db/pipelined-reads'
import { runLoadTool } from './native-load-tool'

/** pgbench of PostgreSQL 15 (package postgresql-15, scripts/ensure-system.mjs server). */
const PGBENCH = '/usr/lib/postgresql/15/bin/pgbench'

/**
 * pgbench's script of one transaction confined to `orgId` running `statement`: its `$n`
 * parameters become the variables `:pn` (given with -D), which `-M prepared` sends as
 * parameters of a statement prepared once per connection, as the confining statement is.
 * Throws when the statement holds a colon pgbench would read as a variable, or a semicolon
 * (its end of command).
 */
export function pgbenchScript(statement: PgStatement): string {
  const text = statement.sql.replace(/\$(\d+)/g, ':p$1')
  if (/(^|[^:]):(?!:|p\d)/.test(text.replace(/::/g, '')) || text.includes(';')) {
    throw new Error('pgbenchScript: the statement holds a colon or semicolon pgbench would misread')
  }
  return [
    '\\startpipeline',
    'BEGIN;',
    "SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', :org, true);",
    `${text};`,
    'COMMIT;',
    '\\endpipeline',
    '',
  ].join('\n')
}

/**
 * Transactions per second of `pgbench` running `statement` for the organisation `orgId` at
 * `url` (a connection URI) with `clients` connections on 2 threads for `seconds` s, counted
 * without connection time. Throws when pgbench is missing, exits non-zero (a failed statement
 * aborts its client) or reports failed transactions.
 */
export async function pgbenchThroughput(options: {
  url: string
  orgId: string
  statement: PgStatement
  clients: number
  seconds: number
}): Promise<number> {
  const variables = options.statement.params.flatMap((value, i) => [
    '-D',
    `p${i + 1}=${String(value)}`,
  ])
  const stdout = await runLoadTool({
    name: 'pgbench',
    command: PGBENCH,
    missing: `${PGBENCH} is missing: run \`node scripts/ensure-system.mjs server\` (package postgresql-15)`,
    scriptName: 'listing.sql',
    script: pgbenchScript(options.statement),
    args: (script) => [
      ...['-n', '-M', 'prepared', '-f', script, '-D', `org=${options.orgId}`, ...variables],
      ...['-c', String(options.clients), '-j', '2', '-T', String(options.seconds)],
      options.url,
    ],
  })
  const failed = /number of failed transactions: (\d+)/.exec(stdout)
  if (failed && failed[1] !== '0') throw new Error(`pgbench: ${failed[0]}\n${stdout}`)
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)
  if (!tps?.[1]) throw new Error(`pgbench printed no tps:\n${stdout}`)
  return Number(tps[1])
}

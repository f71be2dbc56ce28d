/**
 * One listing sent as an instance sends it (server/db/pipelined-reads.ts), for the list bench's
 * bare pg client and its floor (decisions 0095, 0099): BEGIN, the confining statement, the
 * listing's statement (both prepared, named) and COMMIT, pipelined on a node-postgres client in
 * pipeline mode and written in one corked write.
 */
import type { Socket } from 'node:net'
import type pg from 'pg'
import type { PgStatement } from '../server/db/pipelined-reads'

/**
 * The page of `orgId`'s documents that `listing` (documentList.statement rendered) builds, as
 * PostgreSQL's JSON text, read on a client of `pool` (created with `pipeline: true`). Throws the
 * database's error, or when the listing answers no row.
 */
export async function bareListing(
  pool: pg.Pool,
  orgId: string,
  listing: PgStatement,
): Promise<string> {
  const client = await pool.connect()
  try {
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream
    socket.cork()
    const answers = Promise.all([
      client.query('BEGIN'),
      client.query({
        name: 'bare_enter_tenant',
        text: `SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', $1, true)`,
        values: [orgId],
      }),
      client.query<{ page: string }>({
        name: 'bare_list',
        text: listing.sql,
        values: listing.params,
      }),
      client.query('COMMIT'),
    ])
    socket.uncork()
    const page = (await answers)[2].rows[0]?.page
    if (page === undefined) throw new Error('the listing answered no row')
    return page
  } finally {
    client.release()
  }
}

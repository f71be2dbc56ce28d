/**
 * One listing sent as an instance sends it (server/db/pipelined-reads.ts), for the list bench's
 * bare pg client and its floor (decisions 0095, 0099): BEGIN, the confining statement, the
 * listing's statement (both prepared, named) and COMMIT, pipelined on a node-postgres client in
 * pipeline mode and written in one corked write.
 */
import type { Socket } from 'node:net'
import type pg from 'pg'
import { sql } from 'drizzle-orm'
import type { PgStatement } from '../server/db/pipelined-reads'
import { documentCounts, documents } from '../server/db/schema'

/**
 * The first page of 50 of an organisation's documents (row-level security confines it) as one
 * statement whose answer is the page's JSON text, built by PostgreSQL with its total and types:
 * the least the database can do for a listing, the bench's limit. It was the instance's own
 * statement until the list kit (decision 0123) gave the page back to Drizzle and Fastify's
 * serializer; the bench keeps it as the reference the instance is compared with.
 */
export const BARE_LISTING = sql`with page as (
    select ${documents.id} as id, ${documents.appId} as "appId", ${documents.title} as title,
      ${documents.documentType} as "documentType", ${documents.preview} as preview,
      ${documents.createdAt} at time zone 'UTC' as "createdAt",
      ${documents.textStatus} as "textStatus"
    from ${documents}
    order by ${documents.createdAt} desc, ${documents.id} desc
    limit ${50} offset ${0})
  select json_build_object(
    'items', coalesce((select json_agg(item order by item."createdAt" desc, item.id desc)
      from page as item), '[]'),
    'total', (select coalesce(sum(${documentCounts.documents}), 0)::int from ${documentCounts}),
    'types', (select coalesce(array_agg(t.document_type order by t.document_type), '{}'::text[])
      from (select distinct ${documentCounts.documentType} from ${documentCounts}
            where ${documentCounts.documents} > 0) as t))::text as page`

/**
 * The page of `orgId`'s documents that `listing` (BARE_LISTING rendered) builds, as
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

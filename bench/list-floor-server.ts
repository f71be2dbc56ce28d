/**
 * The list bench's floor (issue 28, decision 0099): the least any Node.js server could do for
 * one listing on this machine. A bare `node:http` server that answers
 * `GET /api/v1/orgs/:org/documents` with the page PostgreSQL builds, sending exactly what an
 * instance sends (BEGIN, the confining statement, the listing, COMMIT, prepared and pipelined on
 * node-postgres in one corked write) and nothing else: no session, role, rate limit, request id,
 * metrics, logs or time rewrite. `/readyz` answers 200 for haproxy's health check.
 *
 * Run as its own process (`node --import tsx bench/list-floor-server.ts`), as an instance is,
 * with FLOOR_DATABASE_URL (the application's login role), FLOOR_PORT, FLOOR_SQL and
 * FLOOR_PARAMS (the listing's text and parameters as JSON: `documentListStatement` rendered by
 * the bench). Prints "ready" once it listens. Not part of the product.
 */
import http from 'node:http'
import type { Socket } from 'node:net'
import pg from 'pg'

const {
  FLOOR_DATABASE_URL: url,
  FLOOR_PORT: port,
  FLOOR_SQL: listing,
  FLOOR_PARAMS: params,
} = process.env
if (!url || !port || !listing || !params) throw new Error('list-floor-server: missing settings')
const text: string = listing
const values = JSON.parse(params) as unknown[]
/** As many connections as the bench's concurrent requests (and the instance's pool use). */
const pool = new pg.Pool({ connectionString: url, max: 8, pipeline: true })
const LIST_PATH = /^\/api\/v1\/orgs\/([^/?]+)\/documents(\?|$)/

/** The page of `orgId`'s documents as PostgreSQL's JSON text, in one pipelined transaction. */
async function listPage(orgId: string): Promise<string> {
  const client = await pool.connect()
  try {
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream
    socket.cork()
    const answers = Promise.all([
      client.query('BEGIN'),
      client.query({
        name: 'floor_enter_tenant',
        text: `SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', $1, true)`,
        values: [orgId],
      }),
      client.query<{ page: string }>({ name: 'floor_list', text, values }),
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

const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return void res.end('ok')
  const orgId = LIST_PATH.exec(req.url ?? '')?.[1]
  if (!orgId) return void res.writeHead(404).end()
  listPage(orgId).then(
    (page) =>
      res
        .writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(page),
        })
        .end(page),
    (error: Error) => res.writeHead(500).end(error.message),
  )
})
server.keepAliveTimeout = 60_000
server.listen(Number(port), '127.0.0.1', () => console.log('ready'))

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
 * FLOOR_PARAMS (the listing's text and parameters as JSON: `documentList.statement` rendered by
 * the bench). Prints "ready" once it listens. Not part of the product.
 */
import http from 'node:http'
import pg from 'pg'
import { bareListing } from './bare-listing'

const {
  FLOOR_DATABASE_URL: url,
  FLOOR_PORT: port,
  FLOOR_SQL: listing,
  FLOOR_PARAMS: params,
} = process.env
if (!url || !port || !listing || !params) throw new Error('list-floor-server: missing settings')
const statement = { sql: listing, params: JSON.parse(params) as unknown[] }
/** As many connections as the bench's concurrent requests (and the instance's pool use). */
const pool = new pg.Pool({ connectionString: url, max: 8, pipeline: true })
const LIST_PATH = /^\/api\/v1\/orgs\/([^/?]+)\/documents(\?|$)/

const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return void res.end('ok')
  const orgId = LIST_PATH.exec(req.url ?? '')?.[1]
  if (!orgId) return void res.writeHead(404).end()
  bareListing(pool, orgId, statement).then(
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

/**
 * `npm run bench -- --only server` (issue 28): tenant list throughput on PostgreSQL, through one
 * instance and through two behind haproxy, against the same SQL run directly on the database
 * (the limit: what PostgreSQL itself does on this machine). Start-up reuses `npm run
 * test:server`'s pieces (scripts/server-test/: PostgreSQL in a temporary data directory, the
 * SMTP catcher, haproxy; server/test/child-server.ts for the instances), with the application's
 * least-privileged role. Target on 2 cores: list ≥ 0.5 of the bare throughput. Both sides are
 * loaded by a native tool (decision 0095): the limit by PostgreSQL's `pgbench`, the instances by
 * `wrk`, CONCURRENCY connections each for LIST_SECONDS; the same minutes also give, as extra
 * lines, the figures of the Node clients used before (a pipelined pg client, node:http), and
 * the floor (decision 0099): what bare node:http servers sending the same transaction and
 * nothing else answer, one alone and two behind haproxy, the most any Node instance could. Timing
 * starts once the uploads' indexing jobs have finished, so the instances are measured listing,
 * not indexing. Then, with the instances stopped, hybrid search at 100,000 passages on the same
 * server (bench/server-search.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { PgDialect } from 'drizzle-orm/pg-core'
import { startChildServer, type ChildServer } from '../server/test/child-server'
import { freePort } from '../server/test/free-port'
import { startLoadBalancer } from '../scripts/server-test/load-balancer'
import { startMailCatcher } from '../scripts/server-test/mail-catcher'
import { startLexdeskPostgres, type PostgresServer } from '../scripts/server-test/postgres-server'
import type { PgStatement } from '../server/db/pipelined-reads'
import { startListFloor } from './list-floor'
import { bareListing } from './bare-listing'
import { documentList } from '../server/features/documents/service'
import { SEARCH_SERVER_SETTINGS, serverSearchBench } from './server-search'
import { pgbenchThroughput } from './pgbench-throughput'
import { wrkThroughput } from './wrk-throughput'
import { signInByMail, uploadText, type Member } from '../scripts/server-test/lexdesk-client'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/** Documents in the listed organisation: a page of 50 comes back full. */
const DOCUMENTS = 60
const CONCURRENCY = 8
const LIST_SECONDS = 10
/**
 * Load before each timed figure, not counted: an instance's first seconds under load run code
 * V8 has not optimised yet (a fresh instance answered 0.65-0.8 as many listings in its first
 * loaded seconds as in the next ones).
 */
const WARM_UP_SECONDS = 3

/** How long the uploads' indexing may take before the bench gives up (ms). */
const INDEXING_TIMEOUT_MS = 300_000

/**
 * Waits until no job of the database at `url` (a superuser's connection) is queued or running:
 * the uploads' indexing (chunks, embeddings) runs in the instances and would be timed with the
 * listing. Answers the seconds waited; throws after INDEXING_TIMEOUT_MS.
 */
async function indexingDone(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const started = Date.now()
  try {
    for (;;) {
      const { rows } = await client.query<{ busy: number }>(
        `select count(*)::int as busy from jobs where status in ('queued', 'running')`,
      )
      if (rows[0]?.busy === 0) return (Date.now() - started) / 1000
      if (Date.now() - started > INDEXING_TIMEOUT_MS) {
        throw new Error(`${rows[0]?.busy} jobs still queued or running after the uploads`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  } finally {
    await client.end()
  }
}

/** The ids of a page's items, in order, from its JSON text (for the same-page checks). */
function pageIds(text: string): string[] {
  const page = JSON.parse(text) as { items?: Array<{ id: string }> }
  return (page.items ?? []).map((item) => item.id)
}

/** Runs `CONCURRENCY` loops of `once` for `seconds`; returns answers per second. */
async function throughput(once: () => Promise<void>, seconds = LIST_SECONDS): Promise<number> {
  const end = Date.now() + seconds * 1000
  let done = 0
  const loop = async () => {
    while (Date.now() < end) {
      await once()
      done += 1
    }
  }
  const started = Date.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, loop))
  return done / ((Date.now() - started) / 1000)
}

/**
 * Lists the first page of `member`'s documents at `base` over `agent`'s keep-alive connections;
 * throws on anything but 200. The extra figure beside wrk's (decision 0095): node:http, the
 * bench's load generator of decision 0089, in this process, which shares the 2 cores with what
 * it measures.
 */
const listAt = (base: string, member: Member, agent: http.Agent) => () =>
  new Promise<void>((resolve, reject) => {
    const url = `${base}/api/v1/orgs/${member.orgId}/documents?limit=50`
    http
      .get(url, { agent, headers: member.headers }, (res) => {
        res.on('data', () => {})
        res.on('error', reject)
        res.on('end', () =>
          res.statusCode === 200
            ? resolve()
            : reject(new Error(`listing answered ${res.statusCode}`)),
        )
      })
      .on('error', reject)
  })

/**
 * Two list floors (bench/list-floor-server.ts) on `postgres` with `listing`, and haproxy in
 * front of them; their stops go on `stops`. Answers the targets to load: one floor alone and
 * the two behind haproxy. Throws when a floor or haproxy does not start.
 */
async function startFloors(
  postgres: PostgresServer,
  listing: PgStatement,
  stops: Array<() => Promise<unknown>>,
): Promise<Array<{ key: string; base: string }>> {
  const ports = [await freePort(), await freePort()]
  for (const port of ports) {
    const floor = await startListFloor({
      databaseUrl: postgres.url('lexdesk', 'lexdesk_login'),
      port,
      statement: listing,
    })
    stops.push(() => floor.stop())
  }
  const lb = await startLoadBalancer(await freePort(), ports)
  stops.push(() => lb.stop())
  return [
    { key: 'one', base: `http://127.0.0.1:${ports[0]}` },
    { key: 'two_behind_haproxy', base: lb.origin },
  ]
}

export async function serverBench(report: Report): Promise<void> {
  const stops: Array<() => Promise<unknown>> = []
  try {
    const postgres = await startLexdeskPostgres({ settings: SEARCH_SERVER_SETTINGS })
    stops.push(() => postgres.stop())
    const mail = await startMailCatcher()
    stops.push(() => mail.close())
    const ports = [await freePort(), await freePort()]
    const lbPort = await freePort()
    const instances: ChildServer[] = []
    for (const port of ports) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-bench-server-'))
      const instance = await startChildServer({
        dataDir,
        port,
        readyTimeoutMs: 180_000,
        env: {
          DATABASE_URL: postgres.url('lexdesk', 'lexdesk_login'),
          DATABASE_MIGRATION_URL: postgres.url('lexdesk'),
          SMTP_URL: mail.url,
          MAIL_FROM: 'Lexdesk <no-reply@firm.test>',
          PUBLIC_URL: `http://127.0.0.1:${lbPort}`,
          HOST: '127.0.0.1',
          TRUST_PROXY: '127.0.0.1',
          LEXDESK_SECRET: 'server-bench-secret-of-at-least-32-characters!',
          API_READS_PER_MINUTE: '1000000',
          LOG_LEVEL: 'warn',
        },
      })
      instances.push(instance)
      stops.push(async () => {
        await instance.stop('SIGKILL')
        rmSync(dataDir, { recursive: true, force: true })
      })
    }
    const lb = await startLoadBalancer(lbPort, ports)
    stops.push(() => lb.stop())
    const member = await signInByMail(lb.origin, lb.origin, mail)
    for (let i = 0; i < DOCUMENTS; i++)
      await uploadText(lb.origin, member, `memo-${i}.txt`, `Memo ${i}: the parties agree.`)

    // The limit: what the instance sends PostgreSQL for one listing (GET /documents?limit=50),
    // sent the same way by a bare client (bench/bare-listing.ts): the tenant transaction, its
    // confining statement and the listing's own statement (documentList.statement: the page built
    // as JSON, with the total and the organisation's types), prepared, pipelined and written at
    // once as server/db/pipelined-reads.ts writes them.
    const listing = new PgDialect().sqlToQuery(
      documentList.statement({ limit: 50, offset: 0 }).statement,
    )
    const bare = new pg.Pool({
      connectionString: postgres.url('lexdesk', 'lexdesk_login'),
      max: CONCURRENCY,
      pipeline: true,
    })
    stops.push(() => bare.end())
    const bareOnce = () => bareListing(bare, member.orgId, listing)
    // The same page as the instance's, not one emptied by row-level security.
    const ids = pageIds(await bareOnce())
    if (ids.length !== 50) throw new Error(`the bare listing read ${ids.length} documents, not 50`)
    const waited = await indexingDone(postgres.url('lexdesk'))
    report('server_list_indexing_wait_s', waited, 's', 'the uploads indexed before timing')
    const listPath = `/api/v1/orgs/${member.orgId}/documents?limit=50`
    const targets = [
      { key: 'one_instance', base: `http://127.0.0.1:${ports[0]}` },
      { key: 'two_behind_haproxy', base: lb.origin },
    ]
    for (const { base } of targets) {
      const res = await fetch(`${base}${listPath}`, { headers: member.headers })
      const text = await res.text()
      if (res.status !== 200) throw new Error(`${base} listed with ${res.status}: ${text}`)
      if (pageIds(text).join() !== ids.join()) throw new Error(`${base} listed another page`)
    }
    // In the same minutes: the limit by pgbench and by the pg client, then each target by wrk
    // and by node:http.
    const limit = await pgbenchThroughput({
      url: postgres.url('lexdesk', 'lexdesk_login'),
      orgId: member.orgId,
      statement: listing,
      clients: CONCURRENCY,
      seconds: LIST_SECONDS,
    })
    const bareLoop = async () => void (await bareOnce())
    await throughput(bareLoop, WARM_UP_SECONDS)
    const clientLimit = await throughput(bareLoop)
    report('server_list_bare_sql_rps', limit, 'req/s', `pgbench, ${CONCURRENCY} clients, the limit`)
    report(
      'server_list_bare_pg_client_rps',
      clientLimit,
      'req/s',
      `pipelined node-postgres, ${CONCURRENCY} loops, extra`,
    )
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
    stops.push(async () => agent.destroy())
    /** Listings a second wrk gets from `base`, after WARM_UP_SECONDS of load not counted. */
    const wrkRate = async (base: string) => {
      const wrk = (seconds: number) =>
        wrkThroughput({
          url: `${base}${listPath}`,
          headers: member.headers,
          connections: CONCURRENCY,
          seconds,
        })
      await wrk(WARM_UP_SECONDS)
      return wrk(LIST_SECONDS)
    }
    for (const { key, base } of targets) {
      const rate = await wrkRate(base)
      await throughput(listAt(base, member, agent), WARM_UP_SECONDS)
      const nodeRate = await throughput(listAt(base, member, agent))
      report(
        `server_list_${key}_rps`,
        rate,
        'req/s',
        `wrk, ${(rate / limit).toFixed(2)} of pgbench's (target ≥ 0.5)`,
      )
      report(
        `server_list_${key}_node_http_rps`,
        nodeRate,
        'req/s',
        `node:http, ${(nodeRate / clientLimit).toFixed(2)} of the pg client's, extra`,
      )
    }
    // The floor (decision 0099): bare node:http servers sending the same transaction and
    // nothing else, one alone and two behind haproxy, as the instances were measured.
    for (const { key, base } of await startFloors(postgres, listing, stops)) {
      const res = await fetch(`${base}${listPath}`)
      const text = await res.text()
      if (res.status !== 200) throw new Error(`the floor listed with ${res.status}: ${text}`)
      if (pageIds(text).join() !== ids.join()) throw new Error('the floor listed another page')
      const rate = await wrkRate(base)
      report(
        `server_list_floor_${key}_rps`,
        rate,
        'req/s',
        `wrk, ${(rate / limit).toFixed(2)} of pgbench's: a bare Node server's most, extra`,
      )
    }
    // Other work on the shared machine lowers every figure above: say how much there was.
    report('server_list_load_average', os.loadavg()[0] ?? null, '', '1 min, after the figures')
    // The instances go first: the search is timed on a machine doing nothing else of ours.
    for (const stop of stops.splice(2).reverse()) await stop()
    await serverSearchBench(postgres, report)
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined)
  }
}

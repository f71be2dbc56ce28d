/**
 * `npm run bench -- --only server` (issue 28): tenant list throughput on PostgreSQL, through one
 * instance and through two behind haproxy, against the same query run directly on the database
 * with a bare pg client (the limit: what PostgreSQL itself does on this machine). Start-up
 * reuses `npm run test:server`'s pieces (scripts/server-test/: PostgreSQL in a temporary data
 * directory, the SMTP catcher, haproxy; server/test/child-server.ts for the instances), with the
 * application's least-privileged role. Target on 2 cores: list ≥ 0.5 of the bare throughput.
 * Each figure: requests answered in LIST_SECONDS by CONCURRENCY loops. Then, with the instances
 * stopped, hybrid search at 100,000 passages on the same server (bench/server-search.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { PgDialect } from 'drizzle-orm/pg-core'
import { startChildServer, type ChildServer } from '../server/test/child-server'
import { freePort } from '../server/test/free-port'
import { startLoadBalancer } from '../scripts/server-test/load-balancer'
import { startMailCatcher } from '../scripts/server-test/mail-catcher'
import { startLexdeskPostgres } from '../scripts/server-test/postgres-server'
import { documentListStatement } from '../server/features/documents/service'
import { SEARCH_SERVER_SETTINGS, serverSearchBench } from './server-search'
import { signInByMail, uploadText, type Member } from '../scripts/server-test/lexdesk-client'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

/** Documents in the listed organisation: a page of 50 comes back full. */
const DOCUMENTS = 60
const CONCURRENCY = 8
const LIST_SECONDS = 10

/** Runs `CONCURRENCY` loops of `once` for LIST_SECONDS; returns answers per second. */
async function throughput(once: () => Promise<void>): Promise<number> {
  const end = Date.now() + LIST_SECONDS * 1000
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
 * throws on anything but 200. node:http rather than fetch: the load generator shares the 2 cores
 * with what it measures, and undici's fetch cost about 1.2-1.6 ms of CPU a request here, more
 * than half the instance's own, where the bare side's pg client costs 0.2-0.3 ms.
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
    // sent the same way by a bare client: the tenant transaction, its confining statement (a
    // named prepared statement) and the listing's own statement (documentListStatement: the page
    // built as JSON, with the total and the organisation's types), pipelined and written at once
    // as server/db/pipelined-reads.ts writes them.
    const listing = new PgDialect().sqlToQuery(
      documentListStatement({ limit: 50, offset: 0 }).statement,
    )
    const bare = new pg.Pool({
      connectionString: postgres.url('lexdesk', 'lexdesk_login'),
      max: CONCURRENCY,
      pipeline: true,
    })
    stops.push(() => bare.end())
    const bareOnce = async () => {
      const client = await bare.connect()
      try {
        const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream
        socket.cork()
        const answers = Promise.all([
          client.query('BEGIN'),
          client.query({
            name: 'bare_enter_tenant',
            text: `SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', $1, true)`,
            values: [member.orgId],
          }),
          client.query<{ page: string }>(listing.sql, listing.params),
          client.query('COMMIT'),
        ])
        socket.uncork()
        return (await answers)[2].rows
      } finally {
        client.release()
      }
    }
    // The same page as the instance's, not one emptied by row-level security.
    const [first] = await bareOnce()
    const items = (JSON.parse(first?.page ?? '{}') as { items?: unknown[] }).items?.length
    if (items !== 50) throw new Error(`the bare listing read ${items} documents, not 50`)
    const limit = await throughput(async () => void (await bareOnce()))
    report('server_list_bare_sql_rps', limit, 'req/s', `${CONCURRENCY} clients, the limit`)
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
    stops.push(async () => agent.destroy())
    const one = await throughput(listAt(`http://127.0.0.1:${ports[0]}`, member, agent))
    report('server_list_one_instance_rps', one, 'req/s', `${(one / limit).toFixed(2)} of bare`)
    const two = await throughput(listAt(lb.origin, member, agent))
    report(
      'server_list_two_behind_haproxy_rps',
      two,
      'req/s',
      `${(two / limit).toFixed(2)} of bare (target ≥ 0.5)`,
    )
    // The instances go first: the search is timed on a machine doing nothing else of ours.
    for (const stop of stops.splice(2).reverse()) await stop()
    await serverSearchBench(postgres, report)
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined)
  }
}

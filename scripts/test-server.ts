/**
 * `npm run test:server` (issue 28, decision 0064): Lexdesk in server mode on this machine, by
 * configuration alone. Installs what it needs (scripts/ensure-system.mjs server), starts
 * PostgreSQL 15 with pgvector on loopback in a temporary data directory, an S3-compatible server
 * (s3rver) and an SMTP server (smtp-server), two Lexdesk instances on one database (the
 * application's role least-privileged, migrations as the owner) and haproxy in front of them;
 * then checks, through the load balancer or one instance at a time, what must hold across
 * instances. The instances run the server as production does: built to dist/server
 * (scripts/build-server.mjs, afresh at the start) and run by plain node. Prints one line per check and `N passed, N failed`; exits 1 on any failure.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import pg from 'pg'
import S3rver from 's3rver'
import { startChildServer, type ChildServer } from '../server/test/child-server'
import { freePort } from '../server/test/free-port'
import { longContract } from '../server/test/test-contracts'
import { startLoadBalancer, type LoadBalancer } from './server-test/load-balancer'
import { startMailCatcher, type MailCatcher } from './server-test/mail-catcher'
import { startLexdeskPostgres, type PostgresServer } from './server-test/postgres-server'
import { streamRequests } from './server-test/request-stream'
import { SUITES_NEEDING_PGVECTOR, SUITES_ON_POSTGRES } from './server-test/suites-on-postgres'
import {
  expectStatus,
  orgGet,
  orgPost,
  signInByMail,
  uploadText,
  type Member,
} from './server-test/lexdesk-client'

/** The part of ws's client socket used here (ws, a dependency of @fastify/websocket, has no types). */
interface ClientSocket {
  on(event: 'message', listener: (data: Buffer) => void): void
  once(event: 'open' | 'error', listener: (error?: Error) => void): void
  send(data: string): void
  close(): void
}
/** ws's WebSocket client (Node 20 has none of its own). */
const WebSocket = createRequire(import.meta.url)('ws') as new (
  url: string,
  options: { headers: Record<string, string> },
) => ClientSocket

/** The graceful stop's budget here: room for a 5 s drain (drainDelayMs) and the jobs' hand-back. */
const SHUTDOWN_TIMEOUT_S = 20

/** Reads per minute each person may make here: small, so the shared budget is quick to spend. */
const READS_PER_MINUTE = 40

let passed = 0
let failed = 0
const stops: Array<() => Promise<unknown>> = []

/** Runs one check and prints its line; a failure is counted, printed with its reason, and ends nothing. */
async function check(name: string, body: () => Promise<void>): Promise<boolean> {
  try {
    await body()
    passed += 1
    console.log(`ok   ${name}`)
    return true
  } catch (error) {
    failed += 1
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`)
    return false
  }
}

/** Checks left out, each printed with its reason (only pgvector's, when ../shared is absent). */
let skipped = 0

/** Prints a check that cannot run on this machine, and why; it counts as neither passed nor failed. */
function skip(name: string, why: string): void {
  skipped += 1
  console.log(`skip ${name}: ${why}`)
}

/**
 * Whether PostgreSQL 15 has pgvector's extension files. ensure-system.mjs builds it from
 * ../shared/vendor and skips it, saying so, when that folder is not beside the checkout: the checks
 * of search by meaning are then skipped too, and the instances search by words.
 */
function pgvectorInstalled(): boolean {
  const share = spawnSync('/usr/lib/postgresql/15/bin/pg_config', ['--sharedir'], {
    encoding: 'utf8',
  })
  const dir = share.status === 0 ? share.stdout.trim() : '/usr/share/postgresql/15'
  return existsSync(path.join(dir, 'extension', 'vector.control'))
}

const NO_PGVECTOR = 'pgvector is not installed (../shared/vendor is absent beside this checkout)'

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

/** Polls `probe` every 100 ms until it answers a value; throws `what` after `timeoutMs`. */
async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>) {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error(`${what} (waited ${timeoutMs} ms)`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

interface Rig {
  postgres: PostgresServer
  mail: MailCatcher
  s3: { endpoint: string; bucket: string }
  instances: ChildServer[]
  ports: number[]
  lb: LoadBalancer
}

/** The environment of a Lexdesk instance of this rig on `port`. */
function instanceEnv(
  rig: Omit<Rig, 'instances' | 'lb' | 'ports'>,
  publicUrl: string,
  database = 'lexdesk',
) {
  return {
    DATABASE_URL: rig.postgres.url(database, 'lexdesk_login'),
    DATABASE_MIGRATION_URL: rig.postgres.url(database),
    SMTP_URL: rig.mail.url,
    MAIL_FROM: 'Lexdesk <no-reply@firm.test>',
    S3_ENDPOINT: rig.s3.endpoint,
    S3_BUCKET: rig.s3.bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    LEXDESK_SECRET: 'server-mode-test-secret-of-at-least-32-characters',
    API_READS_PER_MINUTE: String(READS_PER_MINUTE),
    // Room for the analysis beside the document's indexing job.
    JOBS_CONCURRENCY: '2',
    SHUTDOWN_TIMEOUT_S: String(SHUTDOWN_TIMEOUT_S),
  }
}

async function startS3(): Promise<{ endpoint: string; bucket: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir })
  const address = (await server.run()) as { port: number }
  stops.push(async () => {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const endpoint = `http://127.0.0.1:${address.port}`
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
  await client.send(new CreateBucketCommand({ Bucket: 'lexdesk' }))
  return { endpoint, bucket: 'lexdesk' }
}

/** The server as production runs it, built by the first check. */
const BUILT_MAIN = 'dist/server/main.js'

/** Starts a Lexdesk instance of the rig on `port` with a data directory of its own. */
async function startInstance(
  base: Omit<Rig, 'instances' | 'lb' | 'ports'>,
  port: number,
  publicUrl: string,
  database?: string,
  env: Record<string, string> = {},
) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lexdesk-instance-'))
  const server = await startChildServer({
    dataDir,
    port,
    entry: BUILT_MAIN,
    readyTimeoutMs: 180_000,
    env: { ...instanceEnv(base, publicUrl, database), ...env },
  })
  stops.push(async () => {
    await server.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })
  return server
}

const at = (port: number) => `http://127.0.0.1:${port}`

async function main() {
  let rig: Rig | undefined
  await check('system packages, pgvector and the built server', async () => {
    execFileSync(process.execPath, ['scripts/ensure-system.mjs', 'server'], { stdio: 'inherit' })
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' })
  })
  await check('PostgreSQL, s3rver, smtp-server, two instances and haproxy start', async () => {
    const postgres = await startLexdeskPostgres()
    stops.push(() => postgres.stop())
    const mail = await startMailCatcher()
    stops.push(() => mail.close())
    const s3 = await startS3()
    const base = { postgres, mail, s3 }
    const ports = [await freePort(), await freePort()]
    const lbPort = await freePort()
    // Started together: both run the migrations at once (the advisory lock lets one apply them).
    const instances = await Promise.all(ports.map((port) => startInstance(base, port, at(lbPort))))
    const lb = await startLoadBalancer(lbPort, ports)
    stops.push(() => lb.stop())
    rig = { ...base, instances, ports, lb }
  })
  if (!rig) return
  const { postgres, mail, s3, instances, ports, lb } = rig
  const vector = pgvectorInstalled()
  const [one, two] = ports.map(at) as [string, string]

  if (!vector) skip('an HNSW index and no warning about pgvector', NO_PGVECTOR)
  await check(
    'both instances started on one database with no warning about the role or pgvector',
    async () => {
      for (const instance of instances) {
        assert(!/could leave row-level security/.test(instance.output()), 'warned of the role')
        if (vector) assert(!/no pgvector/.test(instance.output()), 'warned of pgvector')
      }
      if (!vector) return
      const client = new pg.Client({ connectionString: postgres.url('lexdesk') })
      await client.connect()
      const index = await client.query(
        `SELECT 1 FROM pg_indexes WHERE indexname = 'doc_chunks_embedding_idx' AND indexdef LIKE '%hnsw%'`,
      )
      await client.end()
      assert(index.rowCount === 1, 'doc_chunks has no HNSW index')
    },
  )

  let member: Member | undefined
  await check(
    'sign in through the load balancer with the link the SMTP server received',
    async () => {
      member = await signInByMail(lb.origin, lb.origin, mail)
    },
  )
  if (!member) return
  const who = member

  await check(
    'a document uploaded on instance 1 is read on instance 2 (S3 and PostgreSQL)',
    async () => {
      const text = `Master services agreement ${crypto.randomUUID()}: the supplier indemnifies the client.`
      const id = await uploadText(one, who, 'msa.txt', text)
      const file = await orgGet(two, who, `/documents/${id}/file`)
      await expectStatus(file, 200, 'Reading the file on instance 2')
      assert((await file.text()) === text, 'instance 2 read other bytes')
    },
  )

  if (!vector) skip('search by meaning finds a passage through pgvector', NO_PGVECTOR)
  else
    await check('search by meaning finds a passage through pgvector', async () => {
      const id = await uploadText(
        one,
        who,
        'lease.txt',
        'The tenant shall pay the rent monthly in advance. '.repeat(20),
      )
      await until('the document was not indexed', 60_000, async () => {
        const res = await orgPost(two, who, '/search', { query: 'rent payment', k: 5 })
        const items = ((await res.json()) as { items?: Array<{ documentId: string }> }).items ?? []
        return items.some((item) => item.documentId === id) ? true : undefined
      })
    })

  await check(
    'a realtime subscriber on instance 1 sees an entity created on instance 2',
    async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${ports[0]}/api/v1/orgs/${who.orgId}/realtime`, {
        headers: who.headers,
      })
      const messages: Array<{ type?: string; table?: string; op?: string }> = []
      socket.on('message', (data) => messages.push(JSON.parse(String(data))))
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve())
        socket.once('error', reject)
      })
      socket.send(JSON.stringify({ type: 'subscribe', table: 'public.entities' }))
      await until('no subscribed message', 10_000, async () =>
        messages.some((m) => m.type === 'subscribed') ? true : undefined,
      )
      const created = await orgPost(two, who, '/entities', {
        name: 'Live Client',
        type: 'customer',
        data: {},
      })
      await expectStatus(created, 201, 'Creating an entity on instance 2')
      await until('no change reached instance 1', 10_000, async () =>
        messages.some((m) => m.type === 'change' && m.op === 'insert') ? true : undefined,
      )
      socket.close()
    },
  )

  await check(
    'a sign-out on instance 1 is refused at once on instance 2 (revocation by NOTIFY)',
    async () => {
      const other = await signInByMail(lb.origin, lb.origin, mail)
      // Instance 2 caches the session (for 10 s) ...
      await expectStatus(await orgGet(two, other, '/documents'), 200, 'Listing on instance 2')
      const out = await fetch(`${one}/api/auth/sign-out`, {
        method: 'POST',
        headers: { ...other.headers, 'content-type': 'application/json' },
        body: '{}',
      })
      await expectStatus(out, 200, 'Signing out on instance 1')
      // ... and forgets it when instance 1 announces the sign-out.
      await until('instance 2 still served the signed-out session', 3_000, async () =>
        (await orgGet(two, other, '/documents')).status === 401 ? true : undefined,
      )
    },
  )

  await check(
    'a token minted with a key revoked on instance 1 is refused at once on instance 2 (lineage, decision 0104)',
    async () => {
      const owner = await signInByMail(lb.origin, lb.origin, mail)
      const made = await orgPost(one, owner, '/api-keys', { name: 'Parent', scopes: 'read,admin' })
      await expectStatus(made, 201, 'Creating a key on instance 1')
      const key = (await made.json()) as { id: string; key: string }
      const minted = await fetch(`${one}/api/v1/orgs/${owner.orgId}/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scope: 'read' }),
      })
      await expectStatus(minted, 201, 'Minting a token with the key on instance 1')
      const { token } = (await minted.json()) as { token: string }
      const read = () =>
        fetch(`${two}/api/v1/orgs/${owner.orgId}/documents`, {
          headers: { authorization: `Bearer ${token}` },
        })
      // Instance 2 caches the token and its lineage (for 10 s) ...
      await expectStatus(await read(), 200, 'Reading with the token on instance 2')
      const revoked = await fetch(`${one}/api/v1/orgs/${owner.orgId}/api-keys/${key.id}`, {
        method: 'DELETE',
        headers: owner.headers,
      })
      await expectStatus(revoked, 204, 'Revoking the key on instance 1')
      // ... and checks the lineage again when instance 1 announces the revocation.
      await until('instance 2 still served the token of the revoked key', 3_000, async () =>
        (await read()).status === 401 ? true : undefined,
      )
    },
  )

  await check(
    `API reads are counted across both instances (${READS_PER_MINUTE} a minute)`,
    async () => {
      const reader = await signInByMail(lb.origin, lb.origin, mail)
      const statuses: number[] = []
      for (let i = 0; i <= READS_PER_MINUTE; i++) {
        statuses.push((await orgGet(i % 2 === 0 ? one : two, reader, '/documents')).status)
      }
      const allowed = statuses.filter((s) => s === 200).length
      assert(allowed === READS_PER_MINUTE, `${allowed} reads allowed`)
      assert(statuses.at(-1) === 429, `the read past the budget answered ${statuses.at(-1)}`)
    },
  )

  await check(
    'the application role cannot leave tenant confinement (RESET ROLE, set_config)',
    async () => {
      const client = new pg.Client({ connectionString: postgres.url('lexdesk', 'lexdesk_login') })
      await client.connect()
      try {
        const total = async () =>
          Number((await client.query('SELECT count(*) AS n FROM documents')).rows[0].n)
        await client.query('BEGIN')
        await client.query(
          `SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', 'nobody', true)`,
        )
        assert((await total()) === 0, 'an unknown organisation saw documents')
        await client.query('RESET ROLE')
        assert((await total()) === 0, 'RESET ROLE saw documents of other organisations')
        await client.query('ROLLBACK')
        assert((await total()) === 0, 'the login role saw documents outside a tenant')
        for (const escape of [
          `SELECT set_config('role', 'postgres', false)`,
          'SET ROLE postgres',
          'ALTER TABLE documents DISABLE ROW LEVEL SECURITY',
          'SET row_security = off',
        ]) {
          const refused = await client.query(escape).then(
            () => false,
            () => true,
          )
          if (!refused) {
            // row_security = off is accepted, and then errors on any query policies would filter.
            const filtered = await client.query('SELECT count(*) FROM documents').then(
              () => false,
              () => true,
            )
            assert(escape === 'SET row_security = off' && filtered, `${escape} was accepted`)
          }
        }
      } finally {
        await client.end()
      }
    },
  )

  await check('a job whose instance was killed (SIGKILL) is finished by the other', async () => {
    const id = await uploadText(lb.origin, who, 'framework.txt', longContract(3_000_000))
    const started = await orgPost(lb.origin, who, `/documents/${id}/analyses`, { kind: 'full' })
    await expectStatus(started, 202, 'Starting the analysis')
    const job = (await started.json()) as { id: string }
    const client = new pg.Client({ connectionString: postgres.url('lexdesk') })
    await client.connect()
    try {
      let seen = ''
      const holder = await until(`the job never ran (${seen})`, 60_000, async () => {
        const row = (
          await client.query('SELECT status, locked_by FROM jobs WHERE id = $1', [job.id])
        ).rows[0]
        seen = String(row?.status)
        return row?.status === 'running' ? String(row.locked_by) : undefined
      }).catch((error: Error) => {
        throw new Error(`${error.message}, last status ${seen}`)
      })
      const pid = Number(holder.split('/')[1])
      const victim = instances.findIndex((instance) => instance.pid === pid)
      assert(victim >= 0, `no instance has pid ${pid}`)
      await instances[victim]!.stop('SIGKILL')
      killed.add(instances[victim]!)
      const survivor = at(ports[1 - victim]!)
      const status = await until('the job did not end after the kill', 150_000, async () => {
        const res = await orgGet(survivor, who, `/jobs/${job.id}`)
        const body = (await res.json()) as { status: string }
        return ['succeeded', 'failed', 'cancelled'].includes(body.status) ? body.status : undefined
      })
      assert(status === 'succeeded', `the job ended ${status}`)
    } finally {
      await client.end()
    }
    // The killed instance comes back on its port, so the next check has two again.
    const index = victimIndex(instances)
    instances[index] = await startInstance({ postgres, mail, s3 }, ports[index]!, lb.origin)
  })
  await checkGracefulStop(rig, who)
  await checkWithoutPgvector(rig)
  await check('the API and search suites pass on this PostgreSQL (TEST_DATABASE_URL)', async () => {
    const suites = SUITES_ON_POSTGRES.filter((file) => vector || !SUITES_NEEDING_PGVECTOR.has(file))
    if (suites.length < SUITES_ON_POSTGRES.length)
      skip('the search suites on PostgreSQL', NO_PGVECTOR)
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...suites], {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_URL: postgres.url('postgres') },
    })
    assert(run.status === 0, `vitest exited ${run.status}`)
  })
}

/** Instances killed by a check, to be started again. */
const killed = new Set<ChildServer>()
const victimIndex = (instances: ChildServer[]) => instances.findIndex((i) => killed.has(i))

/**
 * SIGTERM to the instance running a long job, during a stream of requests through haproxy: no
 * request fails (the instance drains: /readyz 503 until haproxy takes it out, then it stops
 * accepting and finishes what it accepted), the process ends within SHUTDOWN_TIMEOUT_S, and its
 * job is handed back at once (lease released), so the other instance takes it long before the
 * 30 s lease of a dead instance would run out.
 */
async function checkGracefulStop(rig: Rig, who: Member) {
  await check(
    'SIGTERM during a stream of requests through haproxy: none fails, the job is handed back',
    async () => {
      const { instances, lb, postgres } = rig
      const id = await uploadText(lb.origin, who, 'terms.txt', longContract(3_000_000))
      const started = await orgPost(lb.origin, who, `/documents/${id}/analyses`, { kind: 'full' })
      await expectStatus(started, 202, 'Starting the analysis')
      const job = (await started.json()) as { id: string }
      const client = new pg.Client({ connectionString: postgres.url('lexdesk') })
      await client.connect()
      try {
        const holder = async () =>
          (await client.query('SELECT status, locked_by FROM jobs WHERE id = $1', [job.id]))
            .rows[0] as { status: string; locked_by: string | null } | undefined
        const pidOf = (row?: { status: string; locked_by: string | null }) =>
          row?.status === 'running' && row.locked_by
            ? Number(row.locked_by.split('/')[1])
            : undefined
        const pid = await until('the job never ran', 60_000, async () => pidOf(await holder()))
        const victim = instances.find((instance) => instance.pid === pid)
        const survivor = instances.find((instance) => instance.pid !== pid)
        assert(victim && survivor, `no instance has pid ${pid}`)
        const requests = streamRequests(lb.origin, ['/healthz', '/api/openapi.json'], 4)
        await new Promise((r) => setTimeout(r, 1000))
        const stopping = Date.now()
        await victim.stop('SIGTERM')
        const tookMs = Date.now() - stopping
        await new Promise((r) => setTimeout(r, 1000))
        const outcomes = await requests.stop()
        const failures = outcomes.filter((outcome) => outcome !== 200)
        assert(outcomes.length > 20, `only ${outcomes.length} requests were sent`)
        assert(
          failures.length === 0,
          `${failures.length} of ${outcomes.length} requests failed: ${failures.slice(0, 3).join('; ')}`,
        )
        assert(tookMs <= SHUTDOWN_TIMEOUT_S * 1000 + 2000, `the stop took ${tookMs} ms`)
        assert(!/ran out of time/.test(victim.output()), 'the graceful stop ran out of time')
        // Finished within the stop's grace, or handed back (not left to its lease): then the
        // survivor claims it within a few polls; 25 s leaves room for a loaded machine and stays
        // under the 30 s lease a dead instance's job waits for.
        await until(
          'the job was neither finished nor taken over by the survivor',
          25_000,
          async () => {
            const row = await holder()
            return row?.status === 'succeeded' || pidOf(row) === survivor.pid ? true : undefined
          },
        )
      } finally {
        await client.end()
      }
    },
  )
}

/**
 * A database whose migrations ran without pgvector (an owner that may not create the extension:
 * it is not a trusted one) and an instance whose one role owns the tables: it starts, warns of
 * both, and finds documents by their words.
 */
async function checkWithoutPgvector(rig: Rig) {
  await check('without pgvector an instance starts, warns, and searches by words', async () => {
    const { postgres, mail } = rig
    await postgres.sql('CREATE ROLE words_owner LOGIN CREATEROLE NOSUPERUSER')
    await postgres.sql('CREATE DATABASE lexdesk_words OWNER words_owner')
    const port = await freePort()
    const instance = await startInstance(rig, port, at(port), 'lexdesk_words', {
      DATABASE_URL: postgres.url('lexdesk_words', 'words_owner'),
      DATABASE_MIGRATION_URL: '',
    })
    assert(/no pgvector extension/.test(instance.output()), 'no warning of the missing pgvector')
    assert(
      /could leave row-level security/.test(instance.output()),
      'no warning that the owner role could leave row-level security',
    )
    const reader = await signInByMail(at(port), at(port), mail)
    const id = await uploadText(
      at(port),
      reader,
      'lease.txt',
      'The tenant pays the rent. '.repeat(20),
    )
    await until('the document was not found by its words', 60_000, async () => {
      const res = await orgPost(at(port), reader, '/search', { query: 'rent', k: 5 })
      const items = ((await res.json()) as { items?: Array<{ documentId: string }> }).items ?? []
      return items.some((item) => item.documentId === id) ? true : undefined
    })
    await instance.stop('SIGTERM')
  })
}

try {
  await main()
} catch (error) {
  failed += 1
  console.log(`FAIL the run stopped: ${error instanceof Error ? error.stack : String(error)}`)
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined)
}
if (skipped > 0) console.log(`\n${skipped} skipped (see the skip lines)`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)

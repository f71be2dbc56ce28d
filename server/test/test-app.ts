/**
 * Test factories: a real app on a private PGlite copy, a real blob directory and the console
 * mailer's outbox; signed-in users made through the real magic-link flow.
 */
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { afterAll, inject } from 'vitest'
import type { Database } from '../db/client'
import type { Principal } from '../db/tenant'
import { openTestDatabases } from './test-database'
import { createConsoleMailer, type Mailer } from '../mail/mailer'
import { createFsBlobStore } from '../blob/fs-blob-store'
import { createBlobLinkSigner } from '../blob/signed-links'
import type { BlobStore } from '../blob/blob-store'
import { createEngines, type Engines } from '../ai/engines'
import type { Analyzer } from '../ai/analyzer/types'
import { WorkerPool } from '../workers/worker-pool'
import type { AppServices } from '../services'
import { buildApp } from '../app'
import type { EventStreamLimits } from '../http/event-streams'
import type { SignInLimits } from '../auth/auth-routes'
import type { DemoLimits } from '../features/demo/routes'
import type { Role } from '../db/roles'
import type { CredentialVerifier } from '../auth/credential-registry'
import type { ApiRateLimits } from '../config'
import {
  TEST_ORIGIN,
  TEST_SECRET,
  UNLIMITED_API_ENV,
  testConfig,
  type TestEnv,
} from './test-config'
import { eq } from 'drizzle-orm'
import { member, verification } from '../db/schema'
import type { Lifecycle } from '../ops/lifecycle'

export interface TestApp {
  app: FastifyInstance
  /**
   * The test's own handle on the app's database: on PostgreSQL the superuser's, while the app
   * logs in as a least-privileged role (test-database.ts); on PGlite the app's own.
   */
  database: Database
  mailer: Mailer
  /** The app's worker pool (two threads), for tests that load it as another firm's work would. */
  pool: WorkerPool
  blobDir: string
  close(): Promise<void>
}

export { TEST_ORIGIN, TEST_SECRET }

const LOCAL_ENGINES = {
  analysis: { engine: 'local' },
  chat: { engine: 'local' },
  stt: { engine: 'local' },
  tts: { engine: 'local' },
  embed: { engine: 'local' },
} as const

/**
 * What a test changes of the app. A setting an operator makes is an environment variable here
 * (`env`, or the named shortcuts below, each turned into its variable), parsed by the real schema
 * through testConfig (test-config.ts), so every absent one takes server/config.ts's default.
 */
export interface TestAppOptions {
  /** Environment variables over TEST_ENV, applied after the shortcuts below. */
  env?: TestEnv
  /** Sign-in limits: windowMs and perEmail (tuning), perClient (SIGN_IN_REQUESTS_PER_CLIENT). */
  signInLimits?: SignInLimits
  /** The public demo's limit per client (tuning; default features/demo DEFAULT_DEMO_LIMITS). */
  demoLimits?: DemoLimits
  analyzer?: Analyzer
  /** Engines replacing the local ones (e.g. openai engines against a test server). */
  engines?: Partial<Engines>
  /** MAX_PDF_PAGES and EXTRACTION_TIMEOUT_S. */
  extraction?: AppServices['limits']['extraction']
  /** EVENT_STREAMS_PER_USER, EVENT_STREAMS_PER_ORG and the keep-alive period (tuning). */
  streams?: EventStreamLimits
  /** REALTIME_SOCKETS_PER_USER. */
  realtimeSocketsPerUser?: number
  /** MAX_RECORDING_MINUTES. */
  maxRecordingMinutes?: number
  /** STORAGE_QUOTA_BYTES. */
  storageQuotaBytes?: number
  /** STORAGE_QUOTA_OBJECTS. */
  storageQuotaObjects?: number
  /** MAX_ORGANIZATIONS_PER_USER. */
  maxOrganizationsPerUser?: number
  /** OCR_LANGUAGES. */
  ocrLanguages?: string
  /** PUBLIC_URL; TEST_ORIGIN (the origin the sign-in helpers send) when absent. */
  publicUrl?: string
  logger?: FastifyBaseLogger
  /** TRUST_PROXY; injected requests come from 127.0.0.1. */
  trustProxy?: boolean | string
  /**
   * API_READS_PER_MINUTE, API_WRITES_PER_MINUTE, API_KEY_REQUESTS_PER_MINUTE,
   * API_FAILED_CREDENTIALS_PER_MINUTE and MCP_MAX_BATCH, each absent one its default; when absent,
   * 100,000 of each (TEST_ENV), so tests that make many requests are not limited.
   */
  apiRateLimits?: ApiRateLimits
  /**
   * Verifiers of Authorization-header credentials (e.g. test-credentials.ts), besides the API
   * keys' and tenant tokens' verifiers every app has.
   */
  credentialVerifiers?: readonly CredentialVerifier[]
  /** Wraps the disk blob store (e.g. to watch what reaches it). */
  wrapBlobs?: (blobs: BlobStore) => BlobStore
  /** WEB_ROOT, the folder of a built web app to serve; default none (API only). */
  webRoot?: string
  /** The process's graceful stop (server/ops/lifecycle.ts), for tests of draining. */
  lifecycle?: Lifecycle
  /** METRICS_TOKEN, the bearer token of `GET /metrics`; no such route when absent. */
  metricsToken?: string
  /**
   * Whether the SQL runner's sandboxes open from the run's shared empty database
   * (global-setup.ts) instead of running an initdb of their own at the first query (tests of
   * the SQL runner; default false: an app that runs no SQL query reads no template).
   */
  sharedSqlSandboxTemplate?: boolean
  /**
   * DNS TXT lookups of SSO domain verification (tuning). Default: no network; every domain has
   * published the token its verification asks for (`publishedEverywhere`).
   */
  resolveTxt?: (name: string) => Promise<string[][]>
}

/**
 * Builds the real app on a fresh database; close() releases everything. `logger` defaults to no
 * logging. Throws as loadConfig does when a setting is invalid.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { database, app: appDatabase } = await openTestDatabases()
  const blobDir = await mkdtemp(path.join(os.tmpdir(), 'lexdesk-blobs-'))
  const config = testConfig(testEnvOf(options, path.join(blobDir, 'no-web')))
  const mailer = createConsoleMailer(() => {})
  const pool = new WorkerPool({ threads: 2 })
  const local = createEngines(LOCAL_ENGINES, pool)
  const engines: Engines = {
    ...local,
    ...options.engines,
    analyzer: options.analyzer ?? local.analyzer,
  }
  const app = await buildApp({
    config,
    resources: {
      database: appDatabase,
      mailer,
      blobs: (options.wrapBlobs ?? ((blobs) => blobs))(
        createFsBlobStore(blobDir, createBlobLinkSigner(TEST_SECRET, config.publicUrl)),
      ),
      pool,
      engines,
    },
    secret: TEST_SECRET,
    logger: options.logger,
    credentialVerifiers: options.credentialVerifiers,
    lifecycle: options.lifecycle,
    sqlSandboxTemplate: options.sharedSqlSandboxTemplate
      ? inject('sqlSandboxTemplate') || undefined
      : undefined,
    tuning: {
      signIn: options.signInLimits ?? { windowMs: 60_000, perEmail: 1000 },
      demo: options.demoLimits,
      streamKeepAliveMs: options.streams?.keepAliveMs,
      resolveTxt: options.resolveTxt ?? publishedEverywhere(database),
    },
  })
  await app.ready()
  return {
    app,
    database,
    mailer,
    pool,
    blobDir,
    async close() {
      await app.close()
      await pool.close()
      await database.close()
      await rm(blobDir, { recursive: true, force: true })
    },
  }
}

/**
 * A DNS without network where every domain publishes the TXT record its pending SSO verification
 * asks for: `_<label>.<domain>` answers `_<label>=<token>` from better-auth's verification table.
 */
function publishedEverywhere(database: Database) {
  return async (name: string): Promise<string[][]> => {
    const label = name.split('.')[0] ?? ''
    const [row] = await database.db
      .select({ value: verification.value })
      .from(verification)
      .where(eq(verification.identifier, label))
    return row ? [[`${label}=${row.value}`]] : []
  }
}

let counter = 0
/** A unique e-mail address for a test user. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1
  return `${prefix}-${Date.now()}-${counter}@firm.test`
}

/** Asks for a sign-in link for `email` and returns the link the mailer received. */
export async function requestMagicLink(t: TestApp, email: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/magic-link',
    headers: { origin: TEST_ORIGIN },
    payload: { email, callbackURL: '/dashboard' },
  })
  if (res.statusCode !== 200)
    throw new Error(`magic link request failed: ${res.statusCode} ${res.body}`)
  const mail = [...t.mailer.outbox].reverse().find((m) => m.to === email)
  if (!mail?.link) throw new Error('no mail captured')
  return mail.link
}

/** Decodes the few HTML entities the sign-in confirmation page escapes. */
function htmlDecode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  )
}

/** The hidden fields of the sign-in confirmation page's form (token, callbackURL, …). */
export function confirmationFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [, name = '', value = ''] of html.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
  )) {
    fields[htmlDecode(name)] = htmlDecode(value)
  }
  return fields
}

/**
 * Submits the confirmation form as the browser does from Lexdesk's own page: a same-origin
 * url-encoded POST of `fields`, with `headers` (e.g. a session cookie) added.
 */
export function confirmSignIn(
  t: TestApp,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/magic-link/verify',
    headers: {
      origin: TEST_ORIGIN,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    payload: new URLSearchParams(fields).toString(),
  })
}

/**
 * Follows a sign-in link as a person does: opens it (the confirmation page) and confirms.
 * Returns the confirmation's response (302 with a session cookie on success), or the page's
 * answer when it is not the confirmation page (an error redirect, a 429).
 */
export async function followLink(t: TestApp, link: string, headers: Record<string, string> = {}) {
  const url = new URL(link)
  const page = await t.app.inject({ method: 'GET', url: url.pathname + url.search, headers })
  if (page.statusCode !== 200) return page
  return confirmSignIn(t, confirmationFields(page.body), headers)
}

function sessionCookie(setCookie: string | string[] | undefined): string {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []
  return cookies.map((c) => c.split(';')[0]).join('; ')
}

export interface TestMember {
  email: string
  userId: string
  orgId: string
  headers: { cookie: string; origin: string }
}

/** Signs a new user in through the magic-link flow; returns their id and request headers. */
async function signedInUser(t: TestApp) {
  const email = uniqueEmail()
  const res = await followLink(t, await requestMagicLink(t, email))
  const cookie = sessionCookie(res.headers['set-cookie'])
  if (!cookie) throw new Error(`sign-in failed: ${res.statusCode}`)
  const headers = { cookie, origin: TEST_ORIGIN }
  const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers })
  const { user } = session.json() as { user: { id: string } }
  return { email, userId: user.id, headers }
}

/**
 * One app for a whole test file: built as the file loads (call it once, at the file's top level,
 * with top-level await) and closed after the file's last test. `options` as `buildTestApp`'s.
 */
export async function testAppForFile(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await buildTestApp(options)
  afterAll(() => t.close())
  return t
}

/**
 * Two people each owning an organisation of their own, named `aliceOrg` and `malloryOrg`: `alice`
 * writes what a test reads, `mallory` is the other tenant who must not reach it.
 */
export async function aliceAndMallory(
  t: TestApp,
  aliceOrg?: string,
  malloryOrg?: string,
): Promise<{ alice: TestMember; mallory: TestMember }> {
  return { alice: await signedInMember(t, aliceOrg), mallory: await signedInMember(t, malloryOrg) }
}

/** Signs a new user in through the magic-link flow and creates an organisation they own. */
export async function signedInMember(t: TestApp, orgName = 'Acme Legal'): Promise<TestMember> {
  const { email, userId, headers } = await signedInUser(t)
  const slug = `${orgName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now()}-${++counter}`
  const org = await t.app.inject({
    method: 'POST',
    url: '/api/auth/organization/create',
    headers,
    payload: { name: orgName, slug },
  })
  if (org.statusCode !== 200) throw new Error(`org create failed: ${org.statusCode} ${org.body}`)
  return { email, userId, orgId: (org.json() as { id: string }).id, headers }
}

/**
 * Signs a new user in and makes them a member of `orgId` with `role`, written straight into
 * better-auth's `member` table (as an accepted invitation would leave it).
 */
export async function signedInWithRole(t: TestApp, orgId: string, role: Role): Promise<TestMember> {
  const { email, userId, headers } = await signedInUser(t)
  await t.database.db
    .insert(member)
    .values({ id: randomUUID(), organizationId: orgId, userId, role })
  return { email, userId, orgId, headers }
}

/**
 * The principal of `member` signed in to their organisation with `role` (as the session's would
 * be), for tests that call a service directly instead of a route.
 */
export function principalOf(member: TestMember, role: Role = 'owner'): Principal {
  return { orgId: member.orgId, userId: member.userId, role, actorType: 'user' }
}

/** The environment variables of `options`' settings, over TEST_ENV (test-config.ts). */
function testEnvOf(options: TestAppOptions, noWeb: string): TestEnv {
  const text = (value: number | string | boolean | undefined) =>
    value === undefined ? undefined : String(value)
  const limits = options.apiRateLimits
  return {
    ...(limits
      ? {
          ...Object.fromEntries(Object.keys(UNLIMITED_API_ENV).map((name) => [name, undefined])),
          API_READS_PER_MINUTE: text(limits.readsPerMinute),
          API_WRITES_PER_MINUTE: text(limits.writesPerMinute),
          API_KEY_REQUESTS_PER_MINUTE: text(limits.keyRequestsPerMinute),
          API_FAILED_CREDENTIALS_PER_MINUTE: text(limits.failedCredentialsPerMinute),
          MCP_MAX_BATCH: text(limits.mcpMaxBatch),
        }
      : {}),
    ...(options.signInLimits
      ? { SIGN_IN_REQUESTS_PER_CLIENT: text(options.signInLimits.perClient) }
      : {}),
    ...(options.publicUrl ? { PUBLIC_URL: options.publicUrl } : {}),
    WEB_ROOT: options.webRoot ?? noWeb,
    TRUST_PROXY: text(options.trustProxy),
    METRICS_TOKEN: options.metricsToken,
    MAX_PDF_PAGES: text(options.extraction?.maxPdfPages),
    EXTRACTION_TIMEOUT_S: text(options.extraction?.timeoutSeconds),
    EVENT_STREAMS_PER_USER: text(options.streams?.perUser),
    EVENT_STREAMS_PER_ORG: text(options.streams?.perOrg),
    REALTIME_SOCKETS_PER_USER: text(options.realtimeSocketsPerUser),
    MAX_RECORDING_MINUTES: text(options.maxRecordingMinutes),
    STORAGE_QUOTA_BYTES: text(options.storageQuotaBytes),
    STORAGE_QUOTA_OBJECTS: text(options.storageQuotaObjects),
    MAX_ORGANIZATIONS_PER_USER: text(options.maxOrganizationsPerUser),
    OCR_LANGUAGES: options.ocrLanguages,
    ...options.env,
  }
}

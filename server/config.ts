/**
 * Every environment variable Lexdesk reads, parsed once with zod. Each is documented in
 * docs/configuration.md, generated from EnvSchema and server/config-variables.ts.
 * `loadConfig(env)` throws an Error listing every invalid or missing variable.
 */
import { z } from 'zod'
import os from 'node:os'
import path from 'node:path'
import { isIP } from 'node:net'
import { REPOSITORY_ROOT } from './repository-root'

/** AI capabilities, each with its own engine choice and model (issue 10). */
export const CAPABILITIES = ['analysis', 'chat', 'stt', 'tts', 'embed'] as const
export type Capability = (typeof CAPABILITIES)[number]

/**
 * Requests per principal per minute, by scope (docs/configuration.md: API_READS_PER_MINUTE, API_WRITES_…), and
 * per API key across both (API_KEY_REQUESTS_PER_MINUTE); refused credentials per client address
 * per minute (API_FAILED_CREDENTIALS_PER_MINUTE) and messages per JSON-RPC batch to /mcp
 * (MCP_MAX_BATCH). Each absent optional one: the default.
 */
export interface ApiRateLimits {
  readsPerMinute: number
  writesPerMinute: number
  keyRequestsPerMinute?: number
  failedCredentialsPerMinute?: number
  mcpMaxBatch?: number
}

/**
 * Defaults: 600 reads (10 a second on average; a screen issues a handful, a job's progress one
 * a second) and 120 writes a minute per principal; a person at the web app stays far below both.
 * An API key: 600 requests a minute of either kind (issue 23 names the figure). 60 refused
 * credentials a minute from one address: a client with a mistyped or revoked key learns it at
 * the first 401, so only guessing needs more (decision 0105). 20 messages a batch to /mcp: an
 * assistant batches a few calls; the SDK's own cap of 100 let one request hold a hundred searches.
 */
export const DEFAULT_API_RATE_LIMITS = {
  readsPerMinute: 600,
  writesPerMinute: 120,
  keyRequestsPerMinute: 600,
  failedCredentialsPerMinute: 60,
  mcpMaxBatch: 20,
} as const satisfies ApiRateLimits

const EngineName = z.enum(['local', 'openai'])

/** An engine choice: `local` (offline, in-process) or an OpenAI-compatible server. */
export type EngineConfig =
  | { engine: 'local' }
  | {
      engine: 'openai'
      baseUrl: string
      apiKey?: string
      model: string
      /** Characters of a document per request (analysis only: AI_ANALYSIS_CONTEXT_CHARS). */
      contextChars?: number
    }

/** An optional string where an empty string counts as unset. */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))

/** An optional URL where an empty string counts as unset. */
const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional())

/** AI_<CAP>_ENGINE, AI_<CAP>_MODEL, AI_<CAP>_BASE_URL and AI_<CAP>_API_KEY for each capability. */
function capabilityVariables() {
  const entries = CAPABILITIES.flatMap((cap) => {
    const prefix = `AI_${cap.toUpperCase()}`
    return [
      [`${prefix}_ENGINE`, EngineName.optional()],
      [`${prefix}_MODEL`, optionalText],
      [`${prefix}_BASE_URL`, optionalUrl],
      [`${prefix}_API_KEY`, optionalText],
    ] as const
  })
  return Object.fromEntries(entries) as Record<string, typeof optionalText>
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal']

/** Whether `entry` is an IP address, a CIDR range (address/prefix) or one of PROXY_RANGE_NAMES. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

/** The environment variables and their parsing; docs/configuration.md documents each (server/config-variables.ts). */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('localhost'),
  PUBLIC_URL: optionalUrl,
  LEXDESK_DATA_DIR: z.string().default('./data'),
  WEB_ROOT: optionalText,
  LEXDESK_SECRET: z.string().min(32, 'LEXDESK_SECRET must be at least 32 characters').optional(),
  DATABASE_URL: optionalUrl,
  DATABASE_MIGRATION_URL: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Lexdesk <no-reply@localhost>'),
  MAIL_TRANSPORT: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.enum(['smtp', 'console']).optional()),
  AI_ENGINE: EngineName.default('local'),
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: optionalText,
  ...capabilityVariables(),
  AI_EMBED_DIMENSIONS: z.coerce.number().int().min(8).max(4096).default(384),
  // 100,000 characters: about 25,000 tokens, inside current hosted models' 128k context with
  // room for instructions and answer; a small local model wants less (decision 0116).
  AI_ANALYSIS_CONTEXT_CHARS: z.coerce.number().int().min(2_000).max(4_000_000).default(100_000),
  WORKER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  JOBS_PER_ORG: z.coerce.number().int().min(1).max(64).optional(),
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  EVENT_STREAMS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(10),
  EVENT_STREAMS_PER_ORG: z.coerce.number().int().min(1).max(100_000).default(100),
  // The web app opens one per organisation per browser tab (web/lib/realtime.ts), and the
  // Realtime Monitor one more: 20 leaves a person a dozen tabs and a few integrations.
  REALTIME_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  API_READS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_API_RATE_LIMITS.readsPerMinute),
  API_WRITES_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_API_RATE_LIMITS.writesPerMinute),
  API_KEY_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_API_RATE_LIMITS.keyRequestsPerMinute),
  API_FAILED_CREDENTIALS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_API_RATE_LIMITS.failedCredentialsPerMinute),
  // At most the SDK's own cap (MAX_BATCH_SIZE of @modelcontextprotocol/sdk), which answers above it.
  MCP_MAX_BATCH: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(DEFAULT_API_RATE_LIMITS.mcpMaxBatch),
  // 30 per 15 minutes (auth-routes.ts's window). An office behind one NAT address, or a test run
  // signing in many people from one machine, may need more.
  SIGN_IN_REQUESTS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(30),
  WORKER_HEAP_MB: z.coerce.number().int().min(64).max(16384).default(1024),
  // At most what a Node timer can wait (2^31 - 1 ms); longer ones fire at once.
  WORKER_TASK_TIMEOUT_S: z.coerce.number().positive().max(2_147_483).default(600),
  MAX_PDF_PAGES: z.coerce.number().int().min(1).default(2000),
  EXTRACTION_TIMEOUT_S: z.coerce.number().positive().max(2_147_483).default(60),
  MAX_RECORDING_MINUTES: z.coerce.number().int().min(1).max(10_000).default(180),
  STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(10 * 1024 ** 3),
  STORAGE_QUOTA_OBJECTS: z.coerce.number().int().min(0).max(1_000_000_000).default(100_000),
  // Ten: a firm's own organisation and a few clones and imports to try things out, while one
  // person's storage stays within ten times STORAGE_QUOTA_BYTES (decision 0109).
  MAX_ORGANIZATIONS_PER_USER: z.coerce.number().int().min(1).max(1_000_000).default(10),
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(20 * 1024 ** 3),
  // Passed to tesseract as `-l`: only codes of letters and '_' joined by '+', so the value can
  // name nothing but language packs (decision 0053).
  OCR_LANGUAGES: z
    .string()
    .regex(
      /^[a-z_]{1,20}(\+[a-z_]{1,20}){0,9}$/,
      "tesseract language codes joined by '+', e.g. eng+deu",
    )
    .default('eng'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '' || v === 'false') return false
      if (v === 'true') return true
      const entries = v.split(',').map((entry) => entry.trim())
      for (const entry of entries.filter((entry) => !isProxyAddress(entry))) {
        ctx.addIssue({
          code: 'custom',
          message: `'${entry}' is not an IP address, a CIDR range or loopback / linklocal / uniquelocal`,
        })
      }
      return entries.join(',')
    }),
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: optionalText,
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.enum(['true', 'false']).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(30),
  // At least 32 characters: a bearer token a scraper keeps; unset means no /metrics at all.
  METRICS_TOKEN: optionalText.pipe(z.string().min(32).optional()),
  SSO_IDP_ORIGINS: optionalText,
})

/** Parsed configuration with defaults applied and paths made absolute. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test'
  port: number
  host: string
  /** Origin used in e-mailed links and as the only trusted origin, without trailing slash. */
  publicUrl: string
  dataDir: string
  /** The built web app's folder (WEB_ROOT, default dist/web beside the server), absolute. */
  webRoot: string
  /** Server secret for sessions and tokens; undefined means "generate one and keep it in dataDir". */
  secret: string | undefined
  databaseUrl: string | undefined
  /**
   * The owner role's URL, through which migrations run (DATABASE_MIGRATION_URL); undefined: the
   * application's own DATABASE_URL (one role for both, as a single-user setup has).
   */
  databaseMigrationUrl: string | undefined
  smtpUrl: string | undefined
  mailFrom: string
  /**
   * How sign-in links leave: 'smtp' (SMTP_URL) or 'console' (printed to the log and kept in the
   * dev outbox). Defaults to smtp when SMTP_URL is set; production without SMTP_URL must choose
   * console explicitly, because a link in a log is a credential.
   */
  mailTransport: 'smtp' | 'console'
  /** Engine per AI capability. */
  ai: Record<Capability, EngineConfig>
  /** Dimensions asked of the openai embedding engine (AI_EMBED_DIMENSIONS, default 384). */
  embedDimensions: number
  /** The shared worker pool: threads (default: cores) and heap cap per thread in MiB. */
  workers: { threads: number | undefined; heapMb: number; taskTimeoutMs: number }
  /**
   * Background jobs run at once by this process (default: cores), and per organisation (default:
   * the process's count); days a finished job's record is kept (default 30).
   */
  jobs: { concurrency: number; perOrgCap: number; retentionDays: number }
  /**
   * Server-sent event streams (the assistant's answers: the API's only ones) open at once per user
   * (default 10) and per organisation (default 100); past them a stream is refused with 429.
   */
  eventStreams: { perUser: number; perOrg: number }
  /**
   * Realtime WebSockets one person (or a credential acting for no person) may hold open at once
   * on one instance (default 20); past it the upgrade is refused with 429.
   */
  realtimeSocketsPerUser: number
  /**
   * Requests per principal (user or credential) per minute on `/api/v1`, by scope: reads (GET,
   * and searches) default 600, writes 120; past them a request is refused with 429 and Retry-After.
   */
  apiRateLimits: Required<ApiRateLimits>
  /**
   * Sign-in link requests and link openings one client address may make per 15-minute window
   * (SIGN_IN_REQUESTS_PER_CLIENT, default 30).
   */
  signInPerClient: number
  /** Limits on text extraction of uploads (issue 5). */
  extraction: { maxPdfPages: number; timeoutSeconds: number }
  /** The longest recording accepted and transcribed, in minutes (default 180). */
  maxRecordingMinutes: number
  /** Bytes an organisation may keep in its storage buckets (default 10 GiB). */
  storageQuotaBytes: number
  /** Objects an organisation may keep in its storage buckets (default 100,000). */
  storageQuotaObjects: number
  /**
   * Organisations one person may own (MAX_ORGANIZATIONS_PER_USER, default 10): the storage quota
   * is per organisation, so this bounds one person's storage too (decision 0109).
   */
  maxOrganizationsPerUser: number
  /**
   * Largest organisation archive imported, in bytes: the upload and the archive's declared
   * inflated size each (IMPORT_MAX_BYTES, default 20 GiB, issue 27).
   */
  importMaxBytes: number
  /** Tesseract languages of OCR, codes joined by '+' (OCR_LANGUAGES, default 'eng'). */
  ocrLanguages: string
  logLevel: string
  /** Seconds a SIGTERM's graceful stop may take before the process exits anyway (default 30). */
  shutdownTimeoutSeconds: number
  /** The bearer token of `/metrics` (METRICS_TOKEN); undefined: no metrics endpoint (404). */
  metricsToken: string | undefined
  /**
   * Origins of the identity providers organisations may register for single sign-on
   * (SSO_IDP_ORIGINS, comma-separated; `https://*.okta.com` style wildcards as better-auth's
   * trustedOrigins take them). Lexdesk fetches an issuer's discovery document, keys and tokens
   * only from these (decision 0152); empty: no provider can be registered.
   */
  ssoIdpOrigins: string[]
  /**
   * Fastify trustProxy: false, true (outside production only), or a comma-separated list of proxy
   * addresses / CIDR ranges; with a list, the client is the right-most X-Forwarded-For entry that
   * is not a listed proxy.
   */
  trustProxy: boolean | string
  /** The S3-compatible store for files (S3_*), or undefined for the file system under dataDir. */
  s3: S3Settings | undefined
}

/** Where an S3-compatible store is and how to reach it (docs/configuration.md: S3_*). */
export interface S3Settings {
  /** Undefined for AWS itself; e.g. `http://minio:9000` for another S3-compatible server. */
  endpoint: string | undefined
  bucket: string
  region: string
  /** Both or neither; neither means the AWS SDK's default chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** `bucket` in the path rather than the host name (MinIO and most self-hosted servers). */
  forcePathStyle: boolean
}

/** Parses `env` (defaults to process.env). Throws an Error naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  if (e.NODE_ENV === 'production' && !e.LEXDESK_SECRET) {
    throw new Error('Invalid configuration:\nLEXDESK_SECRET is required when NODE_ENV=production')
  }
  if (e.NODE_ENV === 'production' && e.TRUST_PROXY === true) {
    throw new Error(
      "Invalid configuration:\nTRUST_PROXY=true is refused when NODE_ENV=production (any client could choose its address, and so its sign-in rate limit, with X-Forwarded-For): list the reverse proxy's addresses instead, e.g. TRUST_PROXY=10.0.0.5",
    )
  }
  if (e.MAIL_TRANSPORT === 'smtp' && !e.SMTP_URL) {
    throw new Error('Invalid configuration:\nMAIL_TRANSPORT=smtp needs SMTP_URL')
  }
  if (e.NODE_ENV === 'production' && !e.SMTP_URL && e.MAIL_TRANSPORT !== 'console') {
    throw new Error(
      'Invalid configuration:\nSMTP_URL is required when NODE_ENV=production (sign-in links would be written to the log); set MAIL_TRANSPORT=console to accept that explicitly',
    )
  }
  const s3Problems = [
    ...(!e.S3_BUCKET &&
    (e.S3_ENDPOINT || e.S3_REGION || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY)
      ? ['S3_BUCKET is required when another S3_ variable is set']
      : []),
    ...(!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY
      ? ['S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all']
      : []),
  ]
  if (s3Problems.length > 0) throw new Error(`Invalid configuration:\n${s3Problems.join('\n')}`)
  const ai = aiEngines(
    e as unknown as Record<string, string | undefined>,
    e.AI_ANALYSIS_CONTEXT_CHARS,
  )
  const jobsConcurrency = e.JOBS_CONCURRENCY ?? os.availableParallelism()
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.LEXDESK_DATA_DIR),
    webRoot: path.resolve(e.WEB_ROOT ?? path.join(REPOSITORY_ROOT, 'dist', 'web')),
    secret: e.LEXDESK_SECRET,
    databaseUrl: e.DATABASE_URL,
    databaseMigrationUrl: e.DATABASE_MIGRATION_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailTransport: e.MAIL_TRANSPORT ?? (e.SMTP_URL ? 'smtp' : 'console'),
    ai,
    embedDimensions: e.AI_EMBED_DIMENSIONS,
    workers: {
      threads: e.WORKER_THREADS,
      heapMb: e.WORKER_HEAP_MB,
      taskTimeoutMs: e.WORKER_TASK_TIMEOUT_S * 1000,
    },
    jobs: {
      concurrency: jobsConcurrency,
      perOrgCap: e.JOBS_PER_ORG ?? jobsConcurrency,
      retentionDays: e.JOB_RETENTION_DAYS,
    },
    eventStreams: { perUser: e.EVENT_STREAMS_PER_USER, perOrg: e.EVENT_STREAMS_PER_ORG },
    realtimeSocketsPerUser: e.REALTIME_SOCKETS_PER_USER,
    apiRateLimits: {
      readsPerMinute: e.API_READS_PER_MINUTE,
      writesPerMinute: e.API_WRITES_PER_MINUTE,
      keyRequestsPerMinute: e.API_KEY_REQUESTS_PER_MINUTE,
      failedCredentialsPerMinute: e.API_FAILED_CREDENTIALS_PER_MINUTE,
      mcpMaxBatch: e.MCP_MAX_BATCH,
    },
    signInPerClient: e.SIGN_IN_REQUESTS_PER_CLIENT,
    extraction: { maxPdfPages: e.MAX_PDF_PAGES, timeoutSeconds: e.EXTRACTION_TIMEOUT_S },
    maxRecordingMinutes: e.MAX_RECORDING_MINUTES,
    storageQuotaBytes: e.STORAGE_QUOTA_BYTES,
    storageQuotaObjects: e.STORAGE_QUOTA_OBJECTS,
    maxOrganizationsPerUser: e.MAX_ORGANIZATIONS_PER_USER,
    importMaxBytes: e.IMPORT_MAX_BYTES,
    ocrLanguages: e.OCR_LANGUAGES,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_S,
    metricsToken: e.METRICS_TOKEN,
    ssoIdpOrigins: (e.SSO_IDP_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter((origin) => origin !== ''),
    trustProxy: e.TRUST_PROXY,
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION ?? 'us-east-1',
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
  }
}

/**
 * Resolves each capability's engine: AI_<CAP>_ENGINE, else AI_ENGINE; for `openai`, the base URL
 * and key from AI_<CAP>_BASE_URL / AI_<CAP>_API_KEY, else AI_BASE_URL / AI_API_KEY, and the model
 * from AI_<CAP>_MODEL (analysis falls back to AI_CHAT_MODEL). Throws naming every missing variable.
 */
function aiEngines(
  env: Record<string, string | undefined>,
  contextChars: number,
): Record<Capability, EngineConfig> {
  const problems: string[] = []
  const resolve = (cap: Capability): EngineConfig => {
    const prefix = `AI_${cap.toUpperCase()}`
    const engine = env[`${prefix}_ENGINE`] ?? env.AI_ENGINE ?? 'local'
    if (engine === 'local') return { engine: 'local' }
    const baseUrl = env[`${prefix}_BASE_URL`] ?? env.AI_BASE_URL
    const model = env[`${prefix}_MODEL`] ?? (cap === 'analysis' ? env.AI_CHAT_MODEL : undefined)
    const modelVariable =
      cap === 'analysis' ? 'AI_ANALYSIS_MODEL or AI_CHAT_MODEL' : `${prefix}_MODEL`
    const missing = [!baseUrl && 'AI_BASE_URL', !model && modelVariable].filter(Boolean)
    if (!baseUrl || !model) {
      problems.push(`the openai ${cap} engine needs ${missing.join(' and ')}`)
      return { engine: 'local' }
    }
    const apiKey = env[`${prefix}_API_KEY`] ?? env.AI_API_KEY
    return cap === 'analysis'
      ? { engine: 'openai', baseUrl, apiKey, model, contextChars }
      : { engine: 'openai', baseUrl, apiKey, model }
  }
  const engines = Object.fromEntries(CAPABILITIES.map((cap) => [cap, resolve(cap)])) as Record<
    Capability,
    EngineConfig
  >
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join('\n')}`)
  return engines
}

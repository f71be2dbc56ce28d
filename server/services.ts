/**
 * The typed containers of the app's wiring. AppResources: what the process creates, owns and
 * closes (main.ts, the tests), handed to buildApp as one value. AppServices: what features use,
 * made by buildApp from the resources. FeatureContext: the one option shape of every feature's
 * route plugin, the services with the configuration and the credentials' pieces (decision 0124).
 * A new engine is a field of Engines; a new store a field of AppResources, which AppServices
 * carries on by itself: one line of wiring where it is created, not a parameter threaded through
 * each plugin.
 */
import type { Database, Db } from './db/client'
import type { BlobStore } from './blob/blob-store'
import type { Mailer } from './mail/mailer'
import type { WorkerPool } from './workers/worker-pool'
import type { Engines } from './ai/engines'
import type { AppJobCatalogue } from './job-catalogue'
import type { EventStreams } from './http/event-streams'
import type { Notifier } from './realtime/notifier'
import type { ChangeFeed } from './realtime/change-feed'
import type { JobRunner, JobRunnerOptions } from './jobs/job-runner'
import type { SignInLimits } from './auth/auth-routes'
import type { Config } from './config'
import type { Auth } from './auth/auth'
import type { PrincipalCache } from './auth/principal-cache'
import type { CredentialRegistry } from './auth/credential-registry'
import type { TenantTokenJwt } from './auth/tenant-token-jwt'
import type { AssistantTool } from './auth/assistant-tool'

export interface AppResources {
  database: Database
  /** Files: originals of uploads, recordings, import files. */
  blobs: BlobStore
  /** Sign-in links. */
  mailer: Mailer
  /** The shared worker pool for CPU-heavy work. */
  pool: WorkerPool
  engines: Engines
}

/** Every resource but the database handle (features get its query builder, `db`) and the mailer. */
export interface AppServices extends Omit<AppResources, 'database' | 'mailer'> {
  db: Db
  /** Background jobs of the catalogue (job-catalogue.ts, contracts only): `enqueue` queues one. */
  jobs: JobRunner<AppJobCatalogue>
  /** LISTEN/NOTIFY across the server processes sharing the database (server/realtime/). */
  notifier: Notifier
  /** The tables' change announcements (the realtime triggers), by table. */
  changes: ChangeFeed
  /** Every server-sent event stream opens through it: per-user and per-organisation caps. */
  streams: EventStreams
  limits: {
    /** Text extraction of uploads: PDF page limit and wall-clock seconds (issue 5). */
    extraction: { maxPdfPages: number; timeoutSeconds: number }
    /** The longest recording transcribed, in minutes (MAX_RECORDING_MINUTES). */
    maxRecordingMinutes: number
    /** Bytes an organisation may keep in its buckets (STORAGE_QUOTA_BYTES). */
    storageQuotaBytes: number
    /** Objects an organisation may keep in its buckets (STORAGE_QUOTA_OBJECTS). */
    storageQuotaObjects: number
    /** Largest organisation archive imported, in bytes (IMPORT_MAX_BYTES). */
    importMaxBytes: number
    /** Organisations one person may own (MAX_ORGANIZATIONS_PER_USER, decision 0109). */
    maxOrganizationsPerUser: number
    /** Tesseract languages of OCR, codes joined by '+' (OCR_LANGUAGES, decision 0053). */
    ocrLanguages: string
  }
}

/**
 * Settings no environment variable sets, each defaulting where it is used: the tests' sign-in and
 * demo windows, the event streams' keep-alive period, the runner's exclusivity (main.ts sets it
 * on PGlite, which admits one process). Everything an operator sets is in `Config` instead
 * (server/config.ts), parsed once with its defaults there.
 */
export interface AppTuning {
  /** Sign-in links per e-mail address and the window (auth-routes.ts DEFAULT_SIGN_IN_LIMITS). */
  signIn?: Partial<Pick<SignInLimits, 'windowMs' | 'perEmail'>>
  /** The public demo's requests per client and window (features/demo DEFAULT_DEMO_LIMITS). */
  demo?: { perClient: number; windowMs: number }
  /** Period of the event streams' keep-alive comment, ms (http/event-streams.ts). */
  streamKeepAliveMs?: number
  /** The job runner's exclusivity, poll period and lease (jobs/job-runner.ts). */
  jobs?: Pick<JobRunnerOptions, 'exclusive' | 'pollMs' | 'leaseSeconds'>
  /** DNS TXT lookups of SSO domain verification (features/sso; default node:dns resolveTxt). */
  resolveTxt?: (name: string) => Promise<string[][]>
}

/** The credentials' pieces a feature's routes use, made once by buildApp (registerCredentials). */
export interface FeatureCredentials {
  /** better-auth: sessions, organisations, members and invitations. */
  auth: Auth
  /** Resolved principals; emptied after a role change, removal or leave, so it applies at once. */
  principals: PrincipalCache
  /** Verifiers of `Authorization`-header credentials, refused ones limited per address (0105). */
  registry: CredentialRegistry
  /** Signs and reads tenant tokens (`ldt_…`, decision 0048). */
  tenantTokens: TenantTokenJwt
  /**
   * Called once a revocation is committed: forgets the credential's cached verdict and its
   * descendants' lineage here, and announces it to the other server processes (decision 0104).
   */
  revoked: { apiKey(digest: string): void; tenantToken(jti: string): void }
}

/**
 * What every feature's route plugin receives, and nothing else: `FastifyPluginAsync<FeatureContext>`
 * registered from the feature table of server/app.ts (decision 0124). A feature takes what it
 * needs from it; a new need is a field here, made once at composition.
 */
export interface FeatureContext {
  services: AppServices
  /** The parsed configuration (server/config.ts), whose defaults every setting has. */
  config: Config
  /** Settings no environment variable sets (tests' limits), each defaulting where it is used. */
  tuning: AppTuning
  credentials: FeatureCredentials
  /** Which database the process opened: PGlite admits one process and cannot cancel a query. */
  databaseKind: Database['kind']
  /** The MCP server's tools, composed from the features' services (server/assistant-tools.ts). */
  assistantTools: readonly AssistantTool[]
  /** The SQL runner's template database file on PGlite (AppDeps.sqlSandboxTemplate, 0091). */
  sqlSandboxTemplate: string | undefined
}

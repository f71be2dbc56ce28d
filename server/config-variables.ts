/**
 * What each environment variable of server/config.ts means, for people: its section, its default
 * as a person reads it, and what it does. `npm run docs:config` (scripts/docs-config.ts) writes
 * docs/configuration.md from these and the schema's own variable names; a test fails when a
 * variable of the schema has no entry here, an entry names no variable, or a stated default
 * disagrees with the schema's.
 * The capability variables appear once each as `AI_<CAP>_…` (CAPABILITIES in server/config.ts).
 */

/** The sections of docs/configuration.md, in their order, with their headings. */
export const CONFIG_SECTIONS = {
  server: 'Server',
  database: 'Database',
  mail: 'Sign-in mail',
  ai: 'AI engines',
  work: 'Workers and background jobs',
  limits: 'Limits',
  rates: 'Rate limits',
  storage: 'File storage (S3)',
  operations: 'Operations',
} as const

/** One variable's documentation: default and meaning are Markdown. */
export interface VariableDoc {
  section: keyof typeof CONFIG_SECTIONS
  default: string
  meaning: string
}

/** Every variable, by name (capability variables by their `AI_<CAP>_…` pattern). */
export const CONFIG_VARIABLES: Record<string, VariableDoc> = {
  PORT: {
    section: 'server',
    default: '`3000`',
    meaning: 'HTTP port',
  },
  HOST: {
    section: 'server',
    default: '`localhost`',
    meaning: 'interface to listen on (`0.0.0.0` for all)',
  },
  PUBLIC_URL: {
    section: 'server',
    default: '`http://localhost:$PORT`',
    meaning:
      'the origin users reach; used in e-mailed links, as the only trusted origin (cookie-authenticated writes from any other `Origin`/`Referer` get 403), and to decide HTTPS-only headers (HSTS, CSP `upgrade-insecure-requests` only when it is `https`)',
  },
  LEXDESK_DATA_DIR: {
    section: 'server',
    default: '`./data`',
    meaning:
      "PGlite database (`pglite/`), files (`blobs/`), temporary audio work (`tmp/`, emptied at start), the generated secret and the SQL runner sandboxes' empty database (`sql-sandbox-template.tar`)",
  },
  LEXDESK_SECRET: {
    section: 'server',
    default: 'generated into `$LEXDESK_DATA_DIR/secret`',
    meaning: 'session secret, ≥ 32 characters; required when `NODE_ENV=production`',
  },
  NODE_ENV: {
    section: 'server',
    default: '`development`',
    meaning:
      "`production` makes `LEXDESK_SECRET` mandatory, and `SMTP_URL` too unless `MAIL_TRANSPORT=console`, and skips the realtime hub's check of each message it sends against the typed message map (decision 0125)",
  },
  TRUST_PROXY: {
    section: 'server',
    default: '`false`',
    meaning:
      'behind a reverse proxy, its addresses or ranges (`10.0.0.5,10.1.0.0/16`, `loopback`): the client is the right-most `X-Forwarded-For` hop not listed, the one your proxy saw. `true` trusts the client-set left-most hop: refused in production',
  },
  WEB_ROOT: {
    section: 'server',
    default: '`dist/web` beside the server',
    meaning:
      'the folder of the built web app (`npx vite build`) to serve; the web benchmark points it at its own build',
  },
  DATABASE_URL: {
    section: 'database',
    default: 'unset (embedded PGlite)',
    meaning:
      'a PostgreSQL ≥ 15 URL to use instead of PGlite. With pgvector installed on that server, search works by meaning; without it, by words only (the server warns at start, and each document says so): install pgvector, then run `npm run reembed`',
  },
  DATABASE_MIGRATION_URL: {
    section: 'database',
    default: '`DATABASE_URL`',
    meaning:
      'the PostgreSQL URL of the role that owns the tables, through which migrations run (one process at a time, under an advisory lock). Set it when `DATABASE_URL` logs in as a least-privileged role (no superuser, no BYPASSRLS, owning no table): the migrations then grant that role what it uses. The server warns at start when the `DATABASE_URL` role could leave row-level security',
  },
  SMTP_URL: {
    section: 'mail',
    default: 'unset (links printed to the console)',
    meaning: 'e.g. `smtps://user:pass@mail.firm.example:465`; mail is sent through nodemailer',
  },
  MAIL_FROM: {
    section: 'mail',
    default: '`Lexdesk <no-reply@localhost>`',
    meaning: 'sender of sign-in mails',
  },
  MAIL_TRANSPORT: {
    section: 'mail',
    default: '`smtp` when `SMTP_URL` is set, else `console`',
    meaning:
      '`smtp` or `console`; with `NODE_ENV=production` and no `SMTP_URL` the server refuses to start unless `console` is set explicitly (a sign-in link in a log is a credential)',
  },
  AI_ENGINE: {
    section: 'ai',
    default: '`local`',
    meaning:
      'default engine of every AI capability: `local` (offline, deterministic) or `openai` (any OpenAI-compatible server)',
  },
  AI_BASE_URL: {
    section: 'ai',
    default: 'unset',
    meaning:
      'OpenAI-compatible endpoint, e.g. `http://localhost:11434/v1`; required for an `openai` capability unless it has its own',
  },
  AI_API_KEY: {
    section: 'ai',
    default: 'unset',
    meaning: 'key for that endpoint',
  },
  'AI_<CAP>_ENGINE': {
    section: 'ai',
    default: '`$AI_ENGINE`',
    meaning:
      'engine of one capability; `<CAP>` is `ANALYSIS`, `CHAT`, `STT` (speech to text), `TTS` (text to speech) or `EMBED` (embeddings)',
  },
  'AI_<CAP>_MODEL': {
    section: 'ai',
    default: 'unset',
    meaning:
      'model of an `openai` capability, e.g. `AI_STT_MODEL=whisper-1`; analysis falls back to `AI_CHAT_MODEL`',
  },
  'AI_<CAP>_BASE_URL': {
    section: 'ai',
    default: '`$AI_BASE_URL`',
    meaning: 'a different endpoint or key for one capability',
  },
  'AI_<CAP>_API_KEY': {
    section: 'ai',
    default: '`$AI_API_KEY`',
    meaning: 'a different endpoint or key for one capability',
  },
  AI_ANALYSIS_CONTEXT_CHARS: {
    section: 'ai',
    default: '`100000`',
    meaning:
      'characters of a document sent to an `openai` analysis engine in one request; a longer document is read in parts of at most this size, and the custom columns of a review of a longer one are asked of its passages most relevant to them, at most this size (about 4 characters a token: lower it for a small local model)',
  },
  AI_EMBED_DIMENSIONS: {
    section: 'ai',
    default: '`384`',
    meaning:
      'dimensions asked of an `openai` embedding engine (`dimensions` of `/v1/embeddings`); the local engine has 384. After changing the embedding engine or this, run `npm run reembed`',
  },
  OCR_LANGUAGES: {
    section: 'ai',
    default: '`eng`',
    meaning:
      'tesseract languages of OCR for scanned PDFs, codes joined by `+` (`eng+deu`); each needs its Debian pack `tesseract-ocr-<code>` (`scripts/ensure-system.mjs` installs them): a missing one makes uploads of scanned PDFs answer 503 `ocr_language_missing` naming the package (decision 53)',
  },
  WORKER_THREADS: {
    section: 'work',
    default: 'number of cores',
    meaning:
      'threads of the worker pool for CPU-heavy work (text extraction, local analysis, local embeddings, speech and OCR programs), shared fairly between organisations, plus one spare thread for an organisation running nothing (decision 0107)',
  },
  WORKER_HEAP_MB: {
    section: 'work',
    default: '`1024`',
    meaning: 'heap cap of each worker thread in MiB; a task past it fails alone',
  },
  WORKER_TASK_TIMEOUT_S: {
    section: 'work',
    default: '`600`',
    meaning:
      'seconds a worker-pool task (local analysis, an embedding batch, a speech program) may run before it is stopped; text extraction has its own limit',
  },
  JOBS_CONCURRENCY: {
    section: 'work',
    default: 'number of cores',
    meaning:
      'background jobs this process runs at once, plus one for an organisation running no job (decision 0107)',
  },
  JOBS_PER_ORG: {
    section: 'work',
    default: '`$JOBS_CONCURRENCY`',
    meaning: 'running jobs one organisation may hold at once (fairness between firms)',
  },
  JOB_RETENTION_DAYS: {
    section: 'work',
    default: '`30`',
    meaning:
      "days a finished (succeeded, failed or cancelled) job's record is kept; what it produced (an analysis) stays",
  },
  MAX_PDF_PAGES: {
    section: 'limits',
    default: '`2000`',
    meaning: 'longer PDFs are refused (413) before any page is read',
  },
  EXTRACTION_TIMEOUT_S: {
    section: 'limits',
    default: '`60`',
    meaning: "seconds one upload's text extraction may run (then 422)",
  },
  MAX_RECORDING_MINUTES: {
    section: 'limits',
    default: '`180`',
    meaning:
      'the longest recording accepted and transcribed: longer ones are refused at upload and before transcription (413 `audio_too_long`)',
  },
  STORAGE_QUOTA_BYTES: {
    section: 'limits',
    default: '`10737418240` (10 GiB)',
    meaning:
      'bytes an organisation may keep in its storage buckets; an upload past it is refused whole (413 `storage_quota_exceeded`)',
  },
  STORAGE_QUOTA_OBJECTS: {
    section: 'limits',
    default: '`100000`',
    meaning:
      'objects an organisation may keep in its storage buckets; a new object past it is refused (413 `storage_quota_exceeded`); overwriting one does not count',
  },
  MAX_ORGANIZATIONS_PER_USER: {
    section: 'limits',
    default: '`10`',
    meaning:
      "organisations one person may own (the storage quota is per organisation, so this also bounds one person's storage); creating, importing as new or cloning past it is refused (403 `organization_limit_reached`); the operator's `lexdesk import`/`clone` commands are not limited (decision 0109)",
  },
  EVENT_STREAMS_PER_USER: {
    section: 'limits',
    default: '`10`',
    meaning:
      'assistant answer streams (server-sent events; job progress goes over the realtime WebSocket) one person may hold open at once; past it a new one gets 429 with `Retry-After`',
  },
  EVENT_STREAMS_PER_ORG: {
    section: 'limits',
    default: '`100`',
    meaning:
      'assistant answer streams all members of one organisation may hold open at once (so one firm cannot hold the server); past it 429',
  },
  REALTIME_SOCKETS_PER_USER: {
    section: 'limits',
    default: '`20`',
    meaning:
      "realtime WebSockets (the screens' live refresh, the Realtime Monitor) one person, or a credential acting for no person, may hold open at once on one instance; past it the upgrade is refused with 429 `too_many_sockets`",
  },
  IMPORT_MAX_BYTES: {
    section: 'limits',
    default: '`21474836480` (20 GiB)',
    meaning:
      'largest organisation archive imported: the upload, and the bytes its entries declare inflated (413 `file_too_large` / `archive_too_large`)',
  },
  API_READS_PER_MINUTE: {
    section: 'rates',
    default: '`600`',
    meaning:
      'requests that read (GET, and searches) one person or credential may make to `/api/v1` per minute, across all routes; past it 429 problem `rate_limited` with `Retry-After` (decision 40)',
  },
  API_WRITES_PER_MINUTE: {
    section: 'rates',
    default: '`120`',
    meaning:
      'requests that change something one person or credential may make to `/api/v1` per minute, across all routes; past it 429 with `Retry-After`',
  },
  API_KEY_REQUESTS_PER_MINUTE: {
    section: 'rates',
    default: '`600`',
    meaning:
      'requests one API key may make to `/api/v1` per minute, reads and writes together (before the two budgets above); past it 429 with `Retry-After`',
  },
  API_FAILED_CREDENTIALS_PER_MINUTE: {
    section: 'rates',
    default: '`60`',
    meaning:
      "refused credentials (unknown, revoked or expired API keys and tokens) one client address may send per minute; past it that address's credentialed requests answer 429 problem `rate_limited` with `Retry-After` before any lookup, except a key it used successfully lately; a refused token is refused again from memory for a minute (decision 0105)",
  },
  MCP_MAX_BATCH: {
    section: 'rates',
    default: '`20`',
    meaning:
      'messages a JSON-RPC batch to `/mcp` may hold (1–100); a larger batch answers 413 problem `mcp_batch_too_large`. Each request of a batch spends one of the budgets above and they run one after the other (decision 0105)',
  },
  SIGN_IN_REQUESTS_PER_CLIENT: {
    section: 'rates',
    default: '`30`',
    meaning:
      'sign-in link requests, and link openings, one client address may make per 15 minutes; past it 429. Raise it when many people sign in from one address (an office behind NAT)',
  },
  S3_BUCKET: {
    section: 'storage',
    default: 'unset (files on disk under `$LEXDESK_DATA_DIR/blobs`)',
    meaning:
      "the bucket of an S3-compatible store (AWS S3, MinIO, R2, …) to keep every file in instead of the disk: documents' originals, recordings and imports (decision 0051). The other `S3_*` settings need it",
  },
  S3_ENDPOINT: {
    section: 'storage',
    default: 'unset (AWS S3)',
    meaning: "the store's URL for another S3-compatible server, e.g. `http://minio:9000`",
  },
  S3_REGION: {
    section: 'storage',
    default: '`us-east-1`',
    meaning: "the bucket's region",
  },
  S3_ACCESS_KEY_ID: {
    section: 'storage',
    default: "unset (the AWS SDK's default chain: environment, instance role)",
    meaning: 'the key pair, set together or not at all',
  },
  S3_SECRET_ACCESS_KEY: {
    section: 'storage',
    default: "unset (the AWS SDK's default chain: environment, instance role)",
    meaning: 'the key pair, set together or not at all',
  },
  S3_FORCE_PATH_STYLE: {
    section: 'storage',
    default: '`false`',
    meaning:
      "`true` puts the bucket in the URL's path instead of its host name (MinIO and most self-hosted servers)",
  },
  LOG_LEVEL: {
    section: 'operations',
    default: '`info`',
    meaning:
      'pino level: fatal, error, warn, info, debug (adds each SQL statement, never its values), trace, silent',
  },
  SHUTDOWN_TIMEOUT_S: {
    section: 'operations',
    default: '`30`',
    meaning:
      'seconds a SIGTERM may take: `/readyz` answers 503 at once (the load balancer takes the instance out), requests in flight finish, jobs finish or are handed back to another instance, event streams and WebSockets close; then the process exits, forcibly if the time is up',
  },
  METRICS_TOKEN: {
    section: 'operations',
    default: '(unset)',
    meaning:
      'bearer token (≥ 32 characters) of the Prometheus endpoint `/metrics`; unset, `/metrics` answers 404',
  },
  SSO_IDP_ORIGINS: {
    section: 'server',
    default: '(unset: no SSO provider can be registered)',
    meaning:
      "origins of the identity providers organisations may register for single sign-on, comma-separated (`https://login.microsoftonline.com,https://*.okta.com`): Lexdesk fetches an issuer's discovery document, keys and tokens only from these, and they become trusted origins (a SAML provider posts its answer from its own origin; decision 0152)",
  },
}

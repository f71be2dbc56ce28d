/**
 * Process entry: config → data dir → database (+ migrations) → temporary folders of interrupted
 * work swept → engines → buildApp → listen.
 * Prints the URL; on SIGINT/SIGTERM stops gracefully within SHUTDOWN_TIMEOUT_S
 * (ops/stop-gracefully.ts), then closes the engines and database.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { loadConfig, type Config } from './config'
import { openDatabase } from './db/client'
import { vectorColumn } from './search/vector-column'
import { appRoleEscapes } from './db/app-role-escapes'
import { createConsoleMailer, createSmtpMailer } from './mail/mailer'
import { createFsBlobStore } from './blob/fs-blob-store'
import { createEngines, closeEngines } from './ai/engines'
import { WorkerPool } from './workers/worker-pool'
import { createS3BlobStore, createS3Client } from './blob/s3-blob-store'
import { createBlobLinkSigner } from './blob/signed-links'
import { recordCleanStop, walkUnlessCleanStop } from './blob/orphan-walk'
import { documentFiles } from './features/documents/reconcile-files'
import { recordingFiles } from './features/voice/reconcile-recordings'
import { importFiles } from './features/entities/import-files'
import { exportFiles } from './features/archives/export-files'
import { cloneFiles } from './features/archives/clone-files'
import { bucketFiles } from './features/storage/bucket-files'
import { useTempRoot } from './temp-files/temp-root'
import { wordNet } from './search/paraphrase/wordnet-synonyms'
import { buildApp } from './app'
import { createLogger } from './http/logger'
import { listenOptions } from './http/listen-options'
import { Lifecycle } from './ops/lifecycle'
import { drainDelayMs, stopGracefully } from './ops/stop-gracefully'

/** Returns LEXDESK_SECRET, or (outside production) a random secret kept in `<dataDir>/secret`. */
async function resolveSecret(config: Config): Promise<string> {
  if (config.secret) return config.secret
  const file = path.join(config.dataDir, 'secret')
  try {
    return (await readFile(file, 'utf8')).trim()
  } catch {
    const secret = randomBytes(32).toString('base64url')
    await writeFile(file, secret, { mode: 0o600 })
    return secret
  }
}

async function main(): Promise<void> {
  const config = loadConfig()
  await mkdir(config.dataDir, { recursive: true })
  const log = createLogger({ level: config.logLevel })
  const database = await openDatabase(config, log, (error) => {
    // Every query would fail from now on: end, so the service manager starts a fresh process.
    log.fatal({ err: error }, 'the database thread stopped')
    process.exit(1)
  })
  // PGlite admits one process, so no other server can be mid-upload; PostgreSQL may be shared.
  const uploadGraceMs = database.kind === 'pglite' ? 0 : 15 * 60_000
  // Before any job can start: what a killed transcription left in its temporary folder goes.
  const leftovers = await useTempRoot(path.join(config.dataDir, 'tmp'), uploadGraceMs)
  if (leftovers > 0) log.info({ leftovers }, 'removed temporary folders of interrupted work')
  const escapes = database.kind === 'postgres' ? await appRoleEscapes(database.db) : []
  if (escapes.length > 0)
    log.warn(
      { reasons: escapes },
      'the DATABASE_URL role could leave row-level security (tenant confinement): connect as a role that is no superuser, has no BYPASSRLS and owns no table, and run migrations as the owner through DATABASE_MIGRATION_URL (docs/configuration.md)',
    )
  if ((await vectorColumn(database.db)).dim === null)
    log.warn(
      'this PostgreSQL has no pgvector extension: search by meaning matches words only. Install pgvector on the server, then run `npm run reembed` (docs/configuration.md, DATABASE_URL)',
    )
  const secret = await resolveSecret(config)
  const pool = new WorkerPool(config.workers)
  const engines = createEngines(config.ai, pool, { embedDimensions: config.embedDimensions })
  // Search expands queries with WordNet: read it now, in slices beside the start-up's own work, so
  // the first search does not wait for it (~1 s idle); a search arriving earlier awaits the same read.
  const wordNetStarted = performance.now()
  wordNet().then(
    () =>
      log.info({ ms: Math.round(performance.now() - wordNetStarted) }, 'WordNet read for search'),
    (error: unknown) => log.warn({ err: error }, 'WordNet could not be read: searches will retry'),
  )
  const blobs = config.s3
    ? createS3BlobStore(createS3Client(config.s3), config.s3)
    : createFsBlobStore(
        path.join(config.dataDir, 'blobs'),
        createBlobLinkSigner(secret, config.publicUrl),
      )
  const lifecycle = new Lifecycle()
  const app = await buildApp({
    config,
    secret,
    logger: log,
    lifecycle,
    sqlSandboxTemplate: path.join(config.dataDir, 'sql-sandbox-template.tar'),
    resources: {
      database,
      mailer:
        config.mailTransport === 'smtp' && config.smtpUrl
          ? createSmtpMailer(config.smtpUrl, config.mailFrom)
          : createConsoleMailer(),
      blobs,
      pool,
      engines,
    },
    // PGlite admits one process: every job still 'running' at start was interrupted.
    tuning: { jobs: { exclusive: database.kind === 'pglite' } },
  })
  const shutdown = async (signal: string) => {
    const timeoutMs = config.shutdownTimeoutSeconds * 1000
    app.log.info({ signal }, 'shutting down')
    // The budget is the operator's: past it the process ends whatever still runs.
    setTimeout(() => {
      app.log.error({ timeoutMs }, 'the graceful stop ran out of time')
      process.exit(1)
    }, timeoutMs).unref()
    await stopGracefully(app, lifecycle, { timeoutMs, drainMs: drainDelayMs(timeoutMs) })
    // No request or job runs now: the next start may skip the orphan walk.
    await walk.then(
      (outcome) => recordCleanStop(blobs, outcome),
      () => undefined,
    )
    await closeEngines(engines)
    await pool.close()
    await database.close()
    process.exit(0)
  }
  // After app.ready(), whose job runner has recovered the jobs a stop interrupted: an import file
  // whose job is no longer queued or running is then removed too.
  await app.ready()
  // On PGlite the walk ends before the first request (its grace is 0, so it must not meet an
  // upload between file and row); on PostgreSQL it runs beside them with its grace.
  const walk = walkUnlessCleanStop(
    { db: database.db, blobs },
    app.log,
    [documentFiles, recordingFiles, importFiles, bucketFiles, exportFiles, cloneFiles],
    { minAgeMs: uploadGraceMs, trustMarker: database.kind === 'pglite' },
  )
  if (database.kind === 'pglite') await walk
  else walk.catch((error: unknown) => app.log.error({ err: error }, 'the orphan walk failed'))
  process.once('SIGINT', () => void shutdown('SIGINT'))
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
  await app.listen(listenOptions(config.port, config.host))
  console.log(
    `Lexdesk is running at ${config.publicUrl} (data in ${config.dataDir}, database: ${database.kind})`,
  )
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})

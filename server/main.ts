/**
 * Process entry: config → data dir → database (+ migrations) → engines → buildApp → listen.
 * Prints the URL, and closes the server, engines and database on SIGINT/SIGTERM.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { loadConfig, type Config } from './config'
import { openDatabase } from './db/client'
import { createConsoleMailer, createSmtpMailer } from './mail/mailer'
import { createFsBlobStore } from './blob/fs-blob-store'
import { createAnalyzer } from './ai/analyzer/create-analyzer'
import { buildApp } from './app'
import { createLogger } from './http/logger'

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
  const database = await openDatabase(config, log)
  const analyzer = createAnalyzer(config.ai)
  const app = await buildApp({
    database,
    mailer:
      config.mailTransport === 'smtp' && config.smtpUrl
        ? createSmtpMailer(config.smtpUrl, config.mailFrom)
        : createConsoleMailer(),
    blobs: createFsBlobStore(path.join(config.dataDir, 'blobs')),
    analyzer,
    secret: await resolveSecret(config),
    publicUrl: config.publicUrl,
    logger: log,
    trustProxy: config.trustProxy,
  })
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down')
    await app.close()
    await analyzer.close?.()
    await database.close()
    process.exit(0)
  }
  process.once('SIGINT', () => void shutdown('SIGINT'))
  process.once('SIGTERM', () => void shutdown('SIGTERM'))
  await app.listen({ port: config.port, host: config.host })
  console.log(
    `Lexdesk is running at ${config.publicUrl} (data in ${config.dataDir}, database: ${database.kind})`,
  )
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})

/**
 * Every environment variable Lexdesk reads, parsed once with zod. Each is documented in README.md.
 * `loadConfig(env)` throws an Error listing every invalid or missing variable.
 */
import { z } from 'zod'
import path from 'node:path'

/** An optional URL where an empty string counts as unset. */
const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.string().url().optional())

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('localhost'),
  PUBLIC_URL: optionalUrl,
  LEXDESK_DATA_DIR: z.string().default('./data'),
  LEXDESK_SECRET: z.string().min(32, 'LEXDESK_SECRET must be at least 32 characters').optional(),
  DATABASE_URL: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Lexdesk <no-reply@localhost>'),
  MAIL_TRANSPORT: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.enum(['smtp', 'console']).optional()),
  AI_ENGINE: z.enum(['local', 'openai']).default('local'),
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: z.string().optional(),
  AI_CHAT_MODEL: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined || v === '' || v === 'false' ? false : v === 'true' ? true : v,
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

/** Parsed configuration with defaults applied and paths made absolute. */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test'
  port: number
  host: string
  /** Origin used in e-mailed links and as the only trusted origin, without trailing slash. */
  publicUrl: string
  dataDir: string
  /** Server secret for sessions and tokens; undefined means "generate one and keep it in dataDir". */
  secret: string | undefined
  databaseUrl: string | undefined
  smtpUrl: string | undefined
  mailFrom: string
  /**
   * How sign-in links leave: 'smtp' (SMTP_URL) or 'console' (printed to the log and kept in the
   * dev outbox). Defaults to smtp when SMTP_URL is set; production without SMTP_URL must choose
   * console explicitly, because a link in a log is a credential.
   */
  mailTransport: 'smtp' | 'console'
  ai: { engine: 'local' | 'openai'; baseUrl?: string; apiKey?: string; chatModel?: string }
  logLevel: string
  /** Fastify trustProxy: false, true, or a comma-separated list of proxy addresses/CIDRs. */
  trustProxy: boolean | string
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
  if (e.MAIL_TRANSPORT === 'smtp' && !e.SMTP_URL) {
    throw new Error('Invalid configuration:\nMAIL_TRANSPORT=smtp needs SMTP_URL')
  }
  if (e.NODE_ENV === 'production' && !e.SMTP_URL && e.MAIL_TRANSPORT !== 'console') {
    throw new Error(
      'Invalid configuration:\nSMTP_URL is required when NODE_ENV=production (sign-in links would be written to the log); set MAIL_TRANSPORT=console to accept that explicitly',
    )
  }
  if (e.AI_ENGINE === 'openai' && (!e.AI_BASE_URL || !e.AI_CHAT_MODEL)) {
    throw new Error('Invalid configuration:\nAI_ENGINE=openai needs AI_BASE_URL and AI_CHAT_MODEL')
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.LEXDESK_DATA_DIR),
    secret: e.LEXDESK_SECRET,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailTransport: e.MAIL_TRANSPORT ?? (e.SMTP_URL ? 'smtp' : 'console'),
    ai: {
      engine: e.AI_ENGINE,
      baseUrl: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      chatModel: e.AI_CHAT_MODEL,
    },
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
  }
}

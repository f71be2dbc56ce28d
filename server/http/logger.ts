/**
 * The application log (pino, Fastify's logger) with serializers that keep secrets and client
 * data out of it (house rule 8):
 * - request lines show the path and the *names* of query parameters; every value is replaced by
 *   `[redacted]` (sign-in tokens, search text, any future `code`/`key`/`secret` parameter);
 * - headers are never logged (no cookies, no Authorization);
 * - errors keep an allowlist of fields (type, message, code, SQL state fields, stack, cause);
 *   database errors lose their bound parameters, which hold document text and tokens (Drizzle
 *   and PGlite errors carry them as `params` and repeat them in the message after "params:"),
 *   and a data exception its quoted value. Every error logged as `err` or `error` goes through
 *   it: the job runner's failed jobs as well as failed requests.
 */
import { pino, type DestinationStream, type Logger } from 'pino'
import type { FastifyRequest } from 'fastify'
import { jobLogFields } from '../ops/log-context'

/** What replaces a redacted value. */
export const REDACTED = '[redacted]'

const SAFE_PARAMETER_NAME = /^[\w.[\]-]{1,64}$/

/** `url` with every query value (and any odd-looking parameter name) replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?')
  if (at < 0) return url
  const names = [...new URLSearchParams(url.slice(at + 1)).keys()].map((name) =>
    SAFE_PARAMETER_NAME.test(name) ? `${name}=${REDACTED}` : REDACTED,
  )
  return `${url.slice(0, at)}?${names.join('&')}`
}

/** Removes the bound parameters Drizzle appends to its error messages ("…\nparams: a,b,c"). */
export function withoutParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${REDACTED}`)
}

/** Error fields that never hold client data (PostgreSQL's `detail`/`where` may quote values). */
const SAFE_ERROR_FIELDS = ['code', 'statusCode', 'severity', 'table', 'column', 'constraint']

/**
 * `error`'s message without client data: a Drizzle query error (it keeps `query` and `params`)
 * as "Failed query: <query>\nparams: [redacted]", exactly, whatever the parameters hold (a
 * document's text may itself hold a line like a stack frame, which withoutParams would stop at);
 * a PostgreSQL data exception (SQLSTATE class 22, which quotes the refused value at the end:
 * `invalid input syntax for type uuid: "…"`) without that value; any other through withoutParams.
 */
function safeMessage(error: Error): string {
  const { query, params, code } = error as Error & {
    query?: unknown
    params?: unknown
    code?: unknown
  }
  if (typeof query === 'string' && Array.isArray(params))
    return `Failed query: ${query}\nparams: ${REDACTED}`
  if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code))
    return error.message.replace(/: "[\s\S]*"$/, `: "${REDACTED}"`)
  return withoutParams(error.message)
}

/**
 * Serializes an error for the log without parameters or values (safeMessage, in its message and
 * stack); follows `cause` 5 levels deep.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error }
  const message = safeMessage(error)
  const fields: Record<string, unknown> = {
    type: error.constructor.name === 'Error' ? error.name : error.constructor.name,
    message,
  }
  for (const key of SAFE_ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[key]
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value
  }
  // The stack repeats the message before its frames: the safe message replaces it there.
  if (error.stack) {
    const at = error.message ? error.stack.indexOf(error.message) : -1
    fields.stack =
      at >= 0
        ? `${error.stack.slice(0, at)}${message}${error.stack.slice(at + error.message.length)}`
        : withoutParams(error.stack)
  }
  if (error.cause !== undefined && depth < 5) fields.cause = serializeError(error.cause, depth + 1)
  return fields
}

/** A request as logged: method, path with redacted query, host and client address. */
function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
  }
}

/**
 * Creates the application logger at `level` (pino levels), writing JSON lines to `stream`
 * (stdout when absent). Pass it to buildApp as `logger` and to openDatabase.
 */
export function createLogger(options: { level: string; stream?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      serializers: { req: serializeRequest, err: serializeError, error: serializeError },
      // Inside a job's run: its id and the id of the request that queued it (ops/log-context.ts).
      mixin: jobLogFields,
    },
    options.stream,
  )
}

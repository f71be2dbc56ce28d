/**
 * Fastify's `frameworkErrors` option: requests its router rejects before any hook runs (a path
 * parameter over `maxParamLength` → 414, a malformed percent-encoding → 400). Without this
 * handler Fastify answers them with bare JSON and no security headers, because the security
 * headers are set in an onRequest hook (security-headers.ts) that never runs for them. Here they get the same helmet headers
 * (the `helmet` middleware with the app's options) and an RFC 9457 problem body.
 */
import helmet from 'helmet'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorCode } from '../errors/error-codes'
import { problem } from './problem'
import { helmetOptions } from './security-headers'

const PROBLEM_BY_CODE: Record<string, [number, string, ErrorCode]> = {
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A path segment is too long.', 'path_too_long'],
  FST_ERR_BAD_URL: [400, 'The path is not a valid URL.', 'bad_url'],
}

/** Builds the `frameworkErrors` handler for an app served at `publicUrl`. */
export function frameworkErrorHandler(publicUrl: string) {
  const securityHeaders = helmet(helmetOptions(publicUrl))
  return (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const [status, detail, code] = PROBLEM_BY_CODE[error.code] ?? [
      500,
      'The server could not complete the request.',
      'internal_error',
    ]
    securityHeaders(req.raw, reply.raw, () => {
      void reply
        .status(status)
        .type('application/problem+json')
        .send(JSON.stringify(problem(status, detail, code)))
    })
  }
}

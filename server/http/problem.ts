/**
 * RFC 9457 problem details. `problemFor(error)` maps any thrown value to a status, headers and
 * body; 5xx bodies never carry the internal message.
 */
import { STATUS_CODES } from 'node:http'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { isRowSecurityViolation, isUnstorableText } from '../db/constraint-violation'
import { AppError } from '../errors/app-error'
import { codeForStatus, ERROR_CODES, type ErrorCode } from '../errors/error-codes'
import { isLegalHoldViolation, LEGAL_HOLD_DETAIL } from '../holds/legal-hold'

/** The body of every error answer (RFC 9457 problem details plus Lexdesk's stable `code`). */
export const ProblemSchema = z
  .object({
    type: z.string().describe("A URI naming the problem type; 'about:blank' for plain HTTP ones"),
    title: z.string().describe('The HTTP status text, e.g. "Forbidden"'),
    status: z.number().int().describe('The HTTP status code'),
    detail: z.string().describe('A message for the user'),
    code: z
      .enum(ERROR_CODES)
      .describe("A stable machine-readable code from a closed list, e.g. 'forbidden'"),
    instance: z.string().optional().describe('The request path (without query)'),
  })
  .meta({ id: 'Problem' })

export type Problem = z.infer<typeof ProblemSchema>

/** Builds a problem body for `status` with a human `detail` and a code of ERROR_CODES. */
export function problem(status: number, detail: string, code: ErrorCode): Problem {
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
  }
}

interface FastifyLikeError {
  statusCode?: number
  code?: string
  message?: string
  validation?: { message?: string; instancePath?: string }[]
}

/**
 * Codes for Fastify's own errors (its lib/errors.js) where one of ERROR_CODES says more than the
 * status does.
 */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_VALIDATION: 'validation_failed',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
}

/**
 * Maps a thrown value to `{ problem, headers }`. Unknown errors become a 500 with a generic
 * detail. `bodyLimit` (bytes, the route's) is named in the 413 for an over-large body. Errors of
 * Fastify and its plugins carry their own open set of codes; they get one of ERROR_CODES
 * (FASTIFY_CODES, else `codeForStatus`).
 */
export function problemFor(
  error: unknown,
  context: { bodyLimit?: number } = {},
): { problem: Problem; headers: Record<string, string> } {
  // An AppError's detail is written by us for the user (never an internal message), so it is
  // shown even for 5xx; wrap internal causes with `cause`, which only the log sees.
  if (error instanceof AppError) {
    return { problem: problem(error.status, error.detail, error.code), headers: error.headers }
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const detail = error.validation
      .map(
        (v) =>
          `${v.instancePath ? `${v.instancePath.replace(/^\//, '').replace(/\//g, '.')}: ` : ''}${v.message}`,
      )
      .join('; ')
    return { problem: problem(400, detail || 'Invalid request', 'validation_failed'), headers: {} }
  }
  if (isRowSecurityViolation(error)) {
    const detail =
      'This credential reaches only one app: create and change rows of that app only (give its appId)'
    return { problem: problem(403, detail, 'outside_app_scope'), headers: {} }
  }
  // The database's refusal to delete held data (migration 0060), whatever path deleted it.
  if (isLegalHoldViolation(error)) {
    return { problem: problem(409, LEGAL_HOLD_DETAIL, 'legal_hold'), headers: {} }
  }
  if (isUnstorableText(error)) {
    const detail = 'Text may not contain NUL characters or unpaired surrogates.'
    return { problem: problem(400, detail, 'nul_character'), headers: {} }
  }
  const e = (error ?? {}) as FastifyLikeError
  const status =
    typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600
      ? e.statusCode
      : 500
  if (status >= 500) {
    return {
      problem: problem(status, 'The server could not complete the request.', 'internal_error'),
      headers: {},
    }
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && context.bodyLimit !== undefined) {
    const limit = context.bodyLimit.toLocaleString('en-US')
    return {
      problem: problem(413, `The request body is larger than ${limit} bytes.`, 'body_too_large'),
      headers: {},
    }
  }
  return {
    problem: problem(
      status,
      e.message || STATUS_CODES[status] || 'Error',
      (e.code && FASTIFY_CODES[e.code]) || codeForStatus(status),
    ),
    headers: {},
  }
}

import { isErrorCode, statusForCode, type ErrorCode } from './error-codes'

/**
 * The one error type handlers and services throw. The error handler turns it into an RFC 9457
 * `application/problem+json` answer: `{ type, title, status, detail, code }`.
 */
export class AppError extends Error {
  /**
   * @param code stable machine-readable code from the closed list in error-codes.ts, which also
   *   fixes the HTTP status (`statusForCode`)
   * @param detail human-readable message shown to the user at every status, so put internal
   *   details in `cause`, never in `detail`
   * @param headers extra response headers (e.g. Retry-After)
   * @param cause the underlying error, logged but never sent to the client
   */
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    cause?: unknown,
  ) {
    super(detail, cause === undefined ? undefined : { cause })
    this.name = 'AppError'
    this.status = statusForCode(code)
  }

  /** The fields that cross a worker-thread or job boundary (never the cause). */
  toJSON(): AppErrorJson {
    return { name: 'AppError', code: this.code, status: this.status, detail: this.detail }
  }

  /** Rebuilds an AppError from `toJSON()` output (an unknown code becomes `internal_error`). */
  static fromJSON(json: AppErrorJson): AppError {
    return new AppError(isErrorCode(json.code) ? json.code : 'internal_error', json.detail)
  }

  /** Whether `value` is the `toJSON()` form of an AppError. */
  static isJson(value: unknown): value is AppErrorJson {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { name?: unknown }).name === 'AppError'
    )
  }
}

/** An AppError as plain data (see AppError.toJSON). */
export interface AppErrorJson {
  name: 'AppError'
  code: string
  status: number
  detail: string
}

const NOT_FOUND_CODES = {
  App: 'app_not_found',
  Comparison: 'comparison_not_found',
  Conversation: 'conversation_not_found',
  Document: 'document_not_found',
  Entity: 'entity_not_found',
  File: 'file_not_found',
  Job: 'job_not_found',
  Review: 'review_not_found',
  'Review column': 'review_column_not_found',
  'Review cell': 'review_cell_not_found',
  Organization: 'organization_not_found',
  Playbook: 'playbook_not_found',
  'Playbook version': 'playbook_version_not_found',
  'Playbook check': 'playbook_check_not_found',
  Token: 'token_not_found',
} as const satisfies Record<string, ErrorCode>

/** Shorthand for the 404 that hides whether another tenant's object exists. */
export function notFound(what: keyof typeof NOT_FOUND_CODES): AppError {
  return new AppError(NOT_FOUND_CODES[what], `${what} not found`)
}

/**
 * The one error type handlers and services throw. The error handler turns it into an RFC 9457
 * `application/problem+json` answer: `{ type, title, status, detail, code }`.
 */
export class AppError extends Error {
  /**
   * @param code stable machine-readable code, e.g. 'document_not_found'
   * @param status HTTP status (4xx for the caller's fault; 5xx details are never shown)
   * @param detail human-readable message shown to the user
   * @param headers extra response headers (e.g. Retry-After)
   * @param cause the underlying error, logged but never sent to the client
   */
  constructor(
    readonly code: string,
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    cause?: unknown,
  ) {
    super(detail, cause === undefined ? undefined : { cause })
    this.name = 'AppError'
  }
}

/** Shorthand for the 404 that hides whether another tenant's object exists. */
export function notFound(what: string): AppError {
  return new AppError(
    `${what.toLowerCase().replace(/\s+/g, '_')}_not_found`,
    404,
    `${what} not found`,
  )
}

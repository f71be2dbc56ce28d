/** Typed client for the Lexdesk HTTP API (docs/api-contract.md) and the error type its calls throw. */
import createClient from 'openapi-fetch'
import type { components, paths } from './api-schema'

/** The closed list of problem codes (server/errors/error-codes.ts, through the OpenAPI enum). */
export type ProblemCode = components['schemas']['Problem']['code']

/** RFC 9457 problem body as the server sends it; every field is optional when parsing. */
interface ProblemBody {
  type?: string
  title?: string
  status?: number
  detail?: string
  code?: string
}

/**
 * A non-2xx API answer. `message` is the problem's `detail`, else its `title`, else the status
 * text. Screens choose what to do by `code`, never by `message` or `status`.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status code, e.g. 404. */
  readonly status: number
  /**
   * The problem's machine-readable code, when the server sent one (not for a proxy's plain 502).
   * Taken as sent: a newer server's code outside this build's enum matches no branch.
   */
  readonly code: ProblemCode | undefined
  /** Problem `title` (short, generic), when the server sent one. */
  readonly title: string | undefined
  /** Problem `detail` (user-facing), when the server sent one. */
  readonly detail: string | undefined

  constructor(status: number, problem: ProblemBody | undefined, statusText = '') {
    const detail = typeof problem?.detail === 'string' ? problem.detail : undefined
    const title = typeof problem?.title === 'string' ? problem.title : undefined
    super(detail ?? title ?? (statusText || `Request failed with status ${status}`))
    this.status = status
    this.code = typeof problem?.code === 'string' ? (problem.code as ProblemCode) : undefined
    this.title = title
    this.detail = detail
  }
}

/**
 * Whether a failed request may succeed if sent again: a network failure or a 5xx may pass, a 4xx
 * problem (forbidden, not found, bad input) will not. The query client's retry rule and the job
 * follower's fallback reads (hooks/jobs.ts) both ask it.
 */
export function mayPassOnRetry(error: unknown): boolean {
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500)
}

/**
 * Same-origin client; paths include the `/api/v1` prefix. `fetch` is looked up per call (not
 * captured at start-up) so tests can stub `globalThis.fetch`.
 */
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? '' : window.location.origin,
  fetch: (request: Request) => globalThis.fetch(request),
})

/**
 * Turns an openapi-fetch result into its data or throws an `ApiError` (status + problem detail).
 * Use as `api.GET(...).then(unwrap)`. A 204 answer yields `undefined`.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  const { data, error, response } = result
  if (error !== undefined || !response.ok) {
    const problem = error !== null && typeof error === 'object' ? (error as ProblemBody) : undefined
    throw new ApiError(response.status, problem, response.statusText)
  }
  return data as T
}

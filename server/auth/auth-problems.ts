/**
 * Turns better-auth's error answers (`{ code, message }` JSON, or a bare "Not Found") into RFC
 * 9457 problem+json like the rest of the API, and closes the organisation existence leak: its
 * organisation endpoints answer a non-member 400 "not found" for a missing organisation but 403
 * "not a member" for a real one; both become the same 404 problem `organization_not_found`.
 * better-auth's own codes (an open set, e.g. INVALID_TOKEN) are not passed on: the problem's code
 * comes from the closed list by status, and its message stays the detail.
 */
import { STATUS_CODES } from 'node:http'
import { codeForStatus } from '../errors/error-codes'
import { problem, type Problem } from '../http/problem'

/** better-auth error codes that tell an outsider whether an organisation exists. */
const ORGANISATION_EXISTENCE_CODES = new Set([
  'ORGANIZATION_NOT_FOUND',
  'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION',
  'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION',
])

/** What better-auth puts in an error body. */
interface AuthErrorBody {
  code?: unknown
  message?: unknown
}

function parseErrorBody(text: string): AuthErrorBody {
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null ? (parsed as AuthErrorBody) : {}
  } catch {
    return {}
  }
}

/** A problem body plus the extra headers it needs. `message` repeats `detail` for better-auth's client. */
export interface AuthProblem {
  body: Problem & { message: string }
  headers: Record<string, string>
}

/**
 * Maps a better-auth error answer (`status` ≥ 400, body `text`) for `path` to a problem.
 * `allowedMethods(path)` lists the methods better-auth serves there: a 404 on a path it serves
 * under other methods becomes 405 with `Allow`.
 */
export function authProblem(
  status: number,
  text: string,
  path: string,
  allowedMethods: (path: string) => string[],
): AuthProblem {
  const { code, message } = parseErrorBody(text)
  const codeText = typeof code === 'string' ? code : undefined
  const withMessage = (p: Problem) => ({ ...p, message: p.detail })
  if (codeText && ORGANISATION_EXISTENCE_CODES.has(codeText)) {
    return {
      body: withMessage(problem(404, 'Organization not found', 'organization_not_found')),
      headers: {},
    }
  }
  if (status >= 500) {
    return {
      body: withMessage(
        problem(status, 'The server could not complete the request.', 'internal_error'),
      ),
      headers: {},
    }
  }
  const allowed = status === 404 ? allowedMethods(path) : []
  if (allowed.length > 0) {
    return {
      body: withMessage(problem(405, `Use ${allowed.join(', ')} on ${path}`, 'method_not_allowed')),
      headers: { allow: allowed.join(', ') },
    }
  }
  const detail =
    typeof message === 'string' && message.length > 0 ? message : (STATUS_CODES[status] ?? 'Error')
  // A bare 404 (no better-auth code) is better-auth's router: no such endpoint.
  const bareNotFound = status === 404 && codeText === undefined
  const closedCode = bareNotFound ? 'route_not_found' : codeForStatus(status)
  return { body: withMessage(problem(status, detail, closedCode)), headers: {} }
}

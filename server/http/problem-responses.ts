/**
 * The error answers of API routes, declared in their schemas so the OpenAPI document and the
 * generated web client know them: every error body is a Problem (`application/problem+json`).
 */
import type { FastifySchema } from 'fastify'
import { ProblemSchema } from './problem'

/**
 * An OpenAPI response whose body is a Problem, for a route's `schema.response`, e.g.
 * `{ 409: problemResponse('An app with this slug exists') }`.
 */
export function problemResponse(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } }
}

/**
 * The errors any organisation route can answer; 4xx and 5xx (Fastify's spelling; OpenAPI shows
 * 4XX, 5XX) cover the rest.
 */
const ORGANISATION_ROUTE_ERRORS: Record<string, string> = {
  400: 'The path, query or body is malformed (code validation_failed)',
  401: 'Not signed in (code unauthenticated)',
  403: "The caller's role does not allow this action (code forbidden, or a more specific one)",
  404: 'No such organisation for this caller, or no such object in it: the two look the same',
  '4xx':
    'Another client error, e.g. 409 conflict, 413 too large, 415 unsupported type, 422 unusable input, 429 too many requests',
  '5xx': 'The server or an engine failed; the detail never carries internal messages',
}

/**
 * Returns `schema` with a Problem response for each status of ORGANISATION_ROUTE_ERRORS that the
 * route does not declare itself (its own declarations win). Does not modify `schema`.
 */
export function withProblemResponses(schema: FastifySchema = {}): FastifySchema {
  const declared = (schema.response ?? {}) as Record<string, unknown>
  const response: Record<string, unknown> = {}
  for (const [status, description] of Object.entries(ORGANISATION_ROUTE_ERRORS)) {
    response[status] = problemResponse(description)
  }
  return { ...schema, response: { ...response, ...declared } }
}

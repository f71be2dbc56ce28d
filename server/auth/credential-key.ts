/**
 * Who a request comes from, known without any lookup, for counts kept before the principal is
 * resolved (the event-stream gate, http/event-streams.ts): the credential it sends (the
 * Authorization or x-api-key header principal.ts would verify, else the better-auth session
 * cookie), else its client address. A forged credential only gets a count of its own; a real one
 * acts for one principal.
 *
 * Not hashed: a SHA-256 cost as much as the rest of this (about 16 µs a request on the loaded
 * machine of issue 29), the gate keeps a key only while that client has a stream request under
 * way or open, and the principal cache (principal-cache.ts) keys on the same cookie value anyway.
 * Never log a key.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { getSessionCookie } from 'better-auth/cookies'
import { credentialHeader } from './principal'

/**
 * `header:<value>` or `session:<cookie value>` of the request's credential, else `ip:<address>`.
 * Takes a Fastify request or the plain headers and address of a request not yet routed.
 */
export function credentialKey(req: { headers: IncomingHttpHeaders; ip: string }): string {
  const header = credentialHeader(req)
  if (header !== undefined) return `header:${header}`
  const session = getSessionCookie(new Headers({ cookie: req.headers.cookie ?? '' }))
  return session ? `session:${session}` : `ip:${req.ip}`
}

/**
 * Who a request comes from, known without any lookup, for counts kept before the principal is
 * resolved (the event-stream gate, http/event-streams.ts): a hash of the credential it sends (the
 * Authorization or x-api-key header principal.ts would verify, else the better-auth session
 * cookie), else its client address. Hashed, so the counts hold no credential. A forged credential
 * only gets a count of its own; a real one acts for one principal.
 */
import { createHash } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { getSessionCookie } from 'better-auth/cookies'
import { credentialHeader } from './principal'

/** `credential:<sha-256 base64url>` of the request's credential, else `ip:<address>`. */
export function credentialKey(req: FastifyRequest): string {
  const header = credentialHeader(req)
  const credential =
    header !== undefined
      ? `header:${header}`
      : getSessionCookie(new Headers({ cookie: req.headers.cookie ?? '' }))
  if (!credential) return `ip:${req.ip}`
  return `credential:${createHash('sha256').update(credential).digest('base64url')}`
}

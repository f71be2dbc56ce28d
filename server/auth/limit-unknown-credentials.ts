/**
 * Rate limit of refused credentials (issue 41, decision 0105): a request whose Authorization (or
 * x-api-key) credential no verifier accepts has no principal, so the per-principal budgets
 * (api-rate-limits.ts) never saw it, and each one cost its verifier a database lookup. Here:
 * - each verifier's `null` answer is remembered for a minute by the token's SHA-256 digest (at
 *   most 10,000, least recently used dropped first), so the same unknown, revoked or expired
 *   token sent again is refused without a lookup. Such a token stays refused (keys and tokens are
 *   random and never come back once revoked); a tenant token refused because its minter had left
 *   the firm is refused up to a minute after they rejoin;
 * - each 401 answered to a request carrying a credential of a registered kind counts (before it
 *   is sent) against its client address's budget (`failedCredentialsPerMinute`, in the plugin's store, so processes
 *   sharing a PostgreSQL share it); once past it, that address's credentialed requests are
 *   answered the 429 problem (http/rate-limited.ts) with Retry-After until the window ends, before
 *   any lookup. A token verified lately (within 10 minutes, by digest) is never held back by its
 *   address's block, so a firm behind one NAT address keeps its working keys while a
 *   misconfigured script there spends its refusals.
 */
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import { rateLimited } from '../http/rate-limited'
import type { CredentialRegistry } from './credential-registry'
import { credentialHeader } from './principal'

const MINUTE_MS = 60_000

/** The user's message of the 429. */
const tooMany = (seconds: number) =>
  `Too many refused credentials from this address: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`

const digestOf = (token: string) => createHash('sha256').update(token).digest('base64url')

/**
 * `credentials` with its refusals cached, and `app`'s hooks limiting the refused credentials of a
 * client address to `perMinute` (module comment). Call before registering the routes that take
 * credentials, and give them the returned registry.
 */
export function limitUnknownCredentials(
  app: FastifyInstance,
  credentials: CredentialRegistry,
  perMinute: number,
): CredentialRegistry {
  const refused = new LRUCache<string, true>({ max: 10_000, ttl: MINUTE_MS })
  const admitted = new LRUCache<string, true>({ max: 10_000, ttl: 10 * MINUTE_MS })
  // The end of each blocked address's window, in ms since the epoch.
  const blockedUntil = new LRUCache<string, number>({ max: 10_000, ttl: MINUTE_MS })
  const failures = app.createRateLimit({
    max: perMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (req) => `refused-credential:ip:${req.ip}`,
  })

  /** The token of `req`'s credential when a registered verifier claims it, else undefined. */
  const tokenOf = (req: FastifyRequest): string | undefined => {
    const header = credentialHeader(req)
    return header === undefined ? undefined : credentials.verifierFor(header)?.token
  }

  // Callback hooks, not async ones: every request passes here, and most have nothing to wait for.
  app.addHook('onRequest', (req, _reply, done) => {
    const until = blockedUntil.get(req.ip)
    const token = until === undefined ? undefined : tokenOf(req)
    if (until === undefined || token === undefined || until <= Date.now()) return done()
    if (admitted.has(digestOf(token))) return done()
    done(rateLimited((until - Date.now()) / 1000, tooMany))
  })

  // Counted before the 401 is sent, so the client's next request already sees the count.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (reply.statusCode !== 401 || tokenOf(req) === undefined) return done(null, payload)
    failures(req).then(
      (counted) => {
        // The last refusal the budget admits closes it: the next would be one too many.
        // (`isAllowed` is true only for the plugin's allow list, which counts nothing.)
        if (!counted.isAllowed && (counted.isExceeded || counted.remaining === 0)) {
          blockedUntil.set(req.ip, Date.now() + counted.ttlInSeconds * 1000)
        }
        done(null, payload)
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    )
  })

  return {
    verifierFor(authorization) {
      const found = credentials.verifierFor(authorization)
      if (!found) return null
      const { verifier } = found
      return {
        token: found.token,
        verifier: {
          scheme: verifier.scheme,
          prefix: verifier.prefix,
          async verify(token) {
            const digest = digestOf(token)
            if (refused.has(digest)) return null
            const credential = await verifier.verify(token)
            if (credential) admitted.set(digest, true)
            else {
              refused.set(digest, true)
              admitted.delete(digest)
            }
            return credential
          },
        },
      }
    },
  }
}

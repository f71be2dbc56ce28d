/**
 * How long the credential of a request lasts, for a connection that outlives the request (a
 * realtime WebSocket, decision 0052): the session's id and expiry for the session cookie, the
 * expiry (if any) of a credential in the Authorization header. Checked once, at the upgrade,
 * after the route's guard admitted the caller; the connection then closes at the expiry, or when
 * the session's row is deleted (sign-out, revocation: server/realtime/realtime-hub.ts).
 */
import type { FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import { AppError } from '../errors/app-error'
import type { Auth } from './auth'
import type { CredentialRegistry } from './credential-registry'
import { credentialHeader } from './principal'

/** A credential's lifetime: its session (null for a header credential) and its end (null: none). */
export interface CredentialLifetime {
  sessionId: string | null
  expiresAt: Date | null
}

/**
 * Builds `lifetimeOf(req)`. Throws AppError 401 `unauthenticated` when the credential is no
 * longer valid (it ended between the guard and this lookup).
 */
export function credentialLifetime(deps: { auth: Auth; credentials: CredentialRegistry }) {
  const { auth, credentials } = deps
  return async function lifetimeOf(req: FastifyRequest): Promise<CredentialLifetime> {
    const header = credentialHeader(req)
    if (header !== undefined) {
      const found = credentials.verifierFor(header)
      const credential = found ? await found.verifier.verify(found.token) : null
      if (!credential) throw new AppError('unauthenticated', 'The credential is not valid')
      return { sessionId: null, expiresAt: credential.expiresAt ?? null }
    }
    const found = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
    if (!found) throw new AppError('unauthenticated', 'Not authenticated')
    return { sessionId: found.session.id, expiresAt: new Date(found.session.expiresAt) }
  }
}

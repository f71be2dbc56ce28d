/**
 * Revocations heard by every server process sharing one PostgreSQL (issue 28, decision 0064).
 * Each process caches sessions, memberships, API keys and tenant tokens for a few seconds
 * (principal-cache.ts, api-key-verifier.ts, tenant-token-verifier.ts); a sign-out, a membership
 * change or a revoked credential empties the cache of the process that served it, and this relay
 * tells the others through the notifier (LISTEN/NOTIFY on channel REVOCATIONS_CHANNEL), so they
 * refuse the revoked credential within a notification's delay instead of the caches' lifetime.
 * A process ignores its own announcements (it has already forgotten). A notification lost while
 * a listener reconnects leaves the caches' lifetime (10 s) as the bound. A membership change
 * (`principals`) also reaches API keys and tenant tokens, whose creators' roles are read through
 * the principal cache; a revoked key or token also empties the lineage check (lineage-check.ts),
 * so the credentials created through it are refused too (decision 0104, wired in app.ts).
 */
import { z } from 'zod'
import type { Notifier } from '../realtime/notifier'

export const REVOCATIONS_CHANNEL = 'lexdesk_revocations'

const RevocationSchema = z.discriminatedUnion('kind', [
  /** Some session or membership changed: forget every cached principal. */
  z.object({ kind: z.literal('principals') }),
  /** An API key revoked: its digest (api-key-verifier.ts), never the key. */
  z.object({ kind: z.literal('api_key'), id: z.string().min(1) }),
  /** A tenant token revoked: its jti. */
  z.object({ kind: z.literal('tenant_token'), id: z.string().min(1) }),
])

export type Revocation = z.infer<typeof RevocationSchema>

/** The caches a revocation heard from another process empties (without announcing it again). */
export interface RevocationTargets {
  forgetPrincipals(): void
  forgetApiKey(digest: string): void
  forgetTenantToken(jti: string): void
}

export interface RevocationRelay {
  /** Tells the other processes (fire and forget: a failure is logged, the cache bound remains). */
  announce(revocation: Revocation): void
  /** Stops listening. */
  close(): Promise<void>
}

/** Listens on REVOCATIONS_CHANNEL and applies other processes' revocations to `targets`. */
export async function startRevocationRelay(
  notifier: Notifier,
  targets: RevocationTargets,
  log: { warn(fields: object, message: string): void },
): Promise<RevocationRelay> {
  const self = crypto.randomUUID()
  const stop = await notifier.listen(REVOCATIONS_CHANNEL, (payload) => {
    let message: unknown
    try {
      message = JSON.parse(payload)
    } catch {
      return log.warn({}, 'a revocation notification was not JSON')
    }
    const from = (message as { from?: unknown } | null)?.from
    const parsed = RevocationSchema.safeParse(message)
    if (from === self) return
    if (!parsed.success) return log.warn({}, 'a revocation notification had an unknown shape')
    const revocation = parsed.data
    if (revocation.kind === 'principals') targets.forgetPrincipals()
    else if (revocation.kind === 'api_key') targets.forgetApiKey(revocation.id)
    else targets.forgetTenantToken(revocation.id)
  })
  return {
    announce(revocation) {
      notifier
        .notify(REVOCATIONS_CHANNEL, JSON.stringify({ ...revocation, from: self }))
        .catch((error: unknown) => log.warn({ err: error }, 'announcing a revocation failed'))
    },
    close: stop,
  }
}

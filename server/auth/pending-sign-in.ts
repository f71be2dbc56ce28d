/**
 * Reads, without consuming it, the sign-in a link's token stands for: the confirmation page
 * (magic-link-routes.ts) names the account before the person confirms, and a GET (a mail
 * scanner's prefetch) must leave the token usable.
 */
import type { Auth } from './auth'
import { hashLinkToken } from './hash-link-token'

/**
 * The verification identifier better-auth's magicLink plugin (1.7) stores for a token:
 * `magic-link:<stored token>` (its `magicLinkIdentifier`).
 */
const identifierOf = (token: string) => `magic-link:${hashLinkToken(token)}`

/**
 * The e-mail address a pending, unexpired link `token` signs in, or undefined when the token is
 * unknown, spent or expired (or its record is not a magic link's).
 */
export async function pendingSignIn(auth: Auth, token: string): Promise<string | undefined> {
  const context = await auth.$context
  const row = await context.internalAdapter.findVerificationValue(identifierOf(token))
  if (!row || row.expiresAt.getTime() <= Date.now()) return undefined
  try {
    const value = JSON.parse(row.value) as { type?: unknown; email?: unknown }
    return value.type === 'magic-link' && typeof value.email === 'string' ? value.email : undefined
  } catch {
    return undefined
  }
}

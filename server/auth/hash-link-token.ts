/**
 * The stored form of a sign-in link's token: SHA-256, base64url without padding (the hash
 * better-auth's magicLink plugin uses for `storeToken: 'hashed'`, so links already sent stay
 * valid). Lexdesk hashes tokens itself so that the confirmation page can find a link's pending
 * sign-in without consuming it (pending-sign-in.ts).
 */
import { createHash } from 'node:crypto'

/** `token` (the link's `token` parameter) → its stored form, 43 base64url characters. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

/**
 * The form of an API key (decision 0047): `ldk_` followed by 43 base64url characters, 32 random
 * bytes (256 bits) from the operating system's CSPRNG. Its first 10 characters (`ldk_` + 6) are
 * its visible prefix; the database keeps only its SHA-256 digest. A key that long cannot be
 * guessed, so one unsalted fast hash is enough (a slow password hash guards low-entropy secrets,
 * and would make every uncached request pay for it).
 */
import { createHash, randomBytes } from 'node:crypto'

/** The start of every API key; the credential registry sends tokens with it to this verifier. */
export const API_KEY_PREFIX = 'ldk_'

/** Characters of a key shown in lists: `ldk_` and 6 more. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 6

/** The SHA-256 digest of `key`, as 64 lower-case hex digits (the `key_hash` column). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

/** A new key: the secret to show once, its visible prefix and the digest to store. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`
  return { key, prefix: key.slice(0, VISIBLE_LENGTH), hash: hashApiKey(key) }
}

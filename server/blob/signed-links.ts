/**
 * Signed links to stored objects on the file-system driver (the S3 driver presigns with S3
 * itself): `<PUBLIC_URL>/api/blob-links?key=…&expires=…&signature=…`, where the signature is
 * HMAC-SHA256 over the method, the expiry and the key under a key derived from the server
 * secret. Changing the key, the expiry or the method voids it, so a link cannot be altered to
 * reach another object or to last longer, and a link to read cannot write. A read link may name
 * the file its download is saved as (`name`, also signed: keys end in a uuid, decision 0055). Served by
 * signed-link-routes.ts; the signature is the credential, so those routes take no session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { AppError } from '../errors/app-error'
import { assertSafeKey, type LinkMethod } from './blob-store'

/** Where signed links are served. */
export const SIGNED_LINK_PATH = '/api/blob-links'

/** Longest life of a link, in seconds: a week, as S3's presigned URLs (SigV4's limit). */
export const MAX_LINK_SECONDS = 7 * 24 * 3600

export interface BlobLinkSigner {
  /**
   * An absolute URL granting `method` on `key` for `ttlSeconds` (1..MAX_LINK_SECONDS) from
   * `options.now`, saved as `options.fileName` when given. Throws an Error for an unsafe key or a
   * life out of bounds.
   */
  sign(
    key: string,
    ttlSeconds: number,
    method: LinkMethod,
    options?: { now?: Date; fileName?: string },
  ): string
  /**
   * The key a request's query grants to `method` at `now`, and the file name the link was signed
   * with (null if none). Throws the 403 AppError `signed_link_invalid` for a missing, altered or
   * expired link, or another method.
   */
  verify(
    query: Record<string, unknown>,
    method: string,
    now?: Date,
  ): { key: string; fileName: string | null }
}

/** A signer whose links start with `baseUrl` (PUBLIC_URL) and are keyed by `secret`. */
export function createBlobLinkSigner(secret: string, baseUrl: string): BlobLinkSigner {
  // A key of its own, so a link's signature can never serve as any other of the secret's uses.
  const linkKey = createHmac('sha256', secret).update('lexdesk blob links v1').digest()
  // A link without a name signs what links signed before names existed, so those stay valid.
  const signature = (method: string, expires: string, key: string, name: string | null) =>
    createHmac('sha256', linkKey)
      .update(`${method}\n${expires}\n${key}${name === null ? '' : `\nname:${name}`}`)
      .digest()
  const invalid = (detail: string) => new AppError('signed_link_invalid', detail)
  return {
    sign(key, ttlSeconds, method, { now = new Date(), fileName } = {}) {
      assertSafeKey(key)
      if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_LINK_SECONDS)
        throw new Error(`A link lives 1 to ${MAX_LINK_SECONDS} seconds`)
      const expires = String(Math.floor(now.getTime() / 1000) + ttlSeconds)
      const name = fileName ?? null
      const query = new URLSearchParams({ key, expires })
      if (name !== null) query.set('name', name)
      query.set('signature', signature(method, expires, key, name).toString('base64url'))
      return `${baseUrl}${SIGNED_LINK_PATH}?${query.toString()}`
    },
    verify(query, method, now = new Date()) {
      const { key, expires, signature: given, name = null } = query
      if (typeof key !== 'string' || typeof expires !== 'string' || typeof given !== 'string')
        throw invalid('This link is incomplete.')
      if (name !== null && typeof name !== 'string') throw invalid('This link is not valid.')
      if (!/^\d{1,12}$/.test(expires)) throw invalid('This link is not valid.')
      // A HEAD reads what a GET would, and nothing more.
      const granted = method === 'HEAD' ? 'GET' : method
      const expected = signature(granted, expires, key, name)
      const actual = Buffer.from(given, 'base64url')
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
        throw invalid('This link is not valid.')
      if (Number(expires) * 1000 <= now.getTime()) throw invalid('This link has expired.')
      assertSafeKey(key)
      return { key, fileName: name }
    },
  }
}

/**
 * Tenant tokens as signed JWTs (RFC 7519, with `jose`): `ldt_` followed by a compact JWS signed
 * HS256 with a key derived from the server secret (HKDF-SHA256, RFC 5869, info
 * `lexdesk tenant tokens v1`), so the secret that signs session cookies never signs a token and
 * changing LEXDESK_SECRET ends every token. Claims: `sub` (who minted it: a user id, or
 * `<actor type>:<credential id>` for a key), `org_id`, `app_id` (null = the whole organisation),
 * `scope` (space-separated, as OAuth's scope claim, RFC 8693 §4.2), `iat`, `exp` (seconds since
 * the epoch) and `jti` (a UUID, the row in `tenant_tokens`). Decision 0048.
 */
import { hkdfSync } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'
import { z } from 'zod'

/** The start of every tenant token: the credential registry's prefix, and a secret scanner's. */
export const TENANT_TOKEN_PREFIX = 'ldt_'

/** The claims of a tenant token. */
export const TenantTokenClaims = z.object({
  sub: z.string().min(1),
  org_id: z.string().min(1),
  app_id: z.string().uuid().nullable(),
  scope: z.string(),
  iat: z.number().int(),
  exp: z.number().int(),
  jti: z.string().uuid(),
})
export type TenantTokenClaims = z.infer<typeof TenantTokenClaims>

/** Signs and checks tenant tokens with one key. */
export interface TenantTokenJwt {
  /** The token (`ldt_` + JWT) carrying `claims`. */
  sign(claims: TenantTokenClaims): Promise<string>
  /**
   * The claims of `token` when it is a tenant token signed with this key and not expired at
   * `now` (ms since the epoch, default the clock), else null.
   */
  verify(token: string, now?: number): Promise<TenantTokenClaims | null>
}

/** The HS256 key of `secret` (RFC 7518 §3.2: at least as long as the hash, 32 bytes). */
function signingKey(secret: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, '', 'lexdesk tenant tokens v1', 32))
}

/** The signer of `secret` (the server secret, at least 32 characters). */
export function tenantTokenJwt(secret: string): TenantTokenJwt {
  const key = signingKey(secret)
  return {
    async sign({ sub, jti, iat, exp, ...claims }) {
      const jwt = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setJti(jti)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key)
      return `${TENANT_TOKEN_PREFIX}${jwt}`
    },
    async verify(token, now = Date.now()) {
      if (!token.startsWith(TENANT_TOKEN_PREFIX)) return null
      try {
        const { payload } = await jwtVerify(token.slice(TENANT_TOKEN_PREFIX.length), key, {
          algorithms: ['HS256'],
          typ: 'JWT',
          currentDate: new Date(now),
          requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        })
        const claims = TenantTokenClaims.safeParse(payload)
        return claims.success ? claims.data : null
      } catch {
        return null // a bad signature, an expired token, a malformed one: all the same 401
      }
    },
  }
}

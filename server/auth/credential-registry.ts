/**
 * The credentials other than the session cookie that a request may carry in its `Authorization`
 * header (RFC 9110 §11.6.2: `<scheme> <token>`), and who verifies each. Each verifier claims one
 * scheme (compared case-insensitively, e.g. `Bearer`) and a token prefix (e.g. `ldk_` for API keys,
 * issue 23): the prefix says which store to ask, so a token is looked up in one place only.
 * The registry is built at composition (buildApp): the API keys' verifier (`ldk_`,
 * features/api-keys, decision 0047), the tenant tokens' (`Bearer ldt_…`, decision 0048) and any
 * in buildApp's `credentialVerifiers`; tests add their own kind (server/test/test-credentials.ts).
 * Decision 0040.
 */
import type { Principal } from '../db/tenant'
import type { Role } from '../db/roles'
import type { Scope } from './scopes'

/** What a valid credential stands for. */
export interface VerifiedCredential {
  /** The credential's own id (an API key's row id, say): rate limits and audit key on it. */
  credentialId: string
  /** The one organisation it acts in; a request for another organisation is a 404. */
  orgId: string
  /** The user it acts for, or null for a credential of the organisation itself. */
  userId: string | null
  /** The role it acts with; the verifier caps it at the role of `userId`, if any. */
  role: Role
  /** What it may do; a route needing another scope answers 403 `insufficient_scope`. */
  scopes: readonly Scope[]
  /** The app it is bound to, or null for the whole organisation. */
  appId: string | null
  /** Who acts, as the audit log records it. */
  actorType: Principal['actorType']
  /**
   * When it stops being valid (a tenant token's `exp`), if it does: a realtime socket opened
   * with it is closed then. Absent or null: until revoked.
   */
  expiresAt?: Date | null
}

/** Checks the tokens of one kind. */
export interface CredentialVerifier {
  /** The authentication scheme, e.g. `Bearer`. */
  scheme: string
  /** The start of every token of this kind, e.g. `ldk_`; at least 3 characters. */
  prefix: string
  /**
   * The credential `token` stands for, or null when it is unknown, expired or revoked. Must take
   * the same time whichever of those it is (compare hashes, never the raw tokens).
   */
  verify(token: string): Promise<VerifiedCredential | null>
}

/** The verifiers of an app, looked up by an `Authorization` header. */
export interface CredentialRegistry {
  /**
   * The verifier for `authorization` (an Authorization header's value) and the token to give
   * it, or null when the header is malformed or no verifier claims its scheme and prefix.
   */
  verifierFor(authorization: string): { verifier: CredentialVerifier; token: string } | null
}

/** `<scheme> <token>`: one token68-like credential, as Bearer tokens are (RFC 6750 §2.1). */
const AUTHORIZATION = /^([A-Za-z][\w!#$%&'*+.^`|~-]*) +([\w.~+/-]+=*) *$/

/**
 * Builds the registry. Throws an Error when two verifiers of one scheme have prefixes one of
 * which starts the other (a token would then belong to both), or a prefix is shorter than 3.
 */
export function createCredentialRegistry(
  verifiers: readonly CredentialVerifier[],
): CredentialRegistry {
  for (const [i, a] of verifiers.entries()) {
    if (a.prefix.length < 3) throw new Error(`credential prefix '${a.prefix}' is too short`)
    for (const b of verifiers.slice(i + 1)) {
      const sameScheme = a.scheme.toLowerCase() === b.scheme.toLowerCase()
      if (sameScheme && (a.prefix.startsWith(b.prefix) || b.prefix.startsWith(a.prefix))) {
        throw new Error(`credential prefixes '${a.prefix}' and '${b.prefix}' overlap`)
      }
    }
  }
  return {
    verifierFor(authorization) {
      const [, scheme = '', token = ''] = AUTHORIZATION.exec(authorization) ?? []
      const verifier = verifiers.find(
        (v) => v.scheme.toLowerCase() === scheme.toLowerCase() && token.startsWith(v.prefix),
      )
      return verifier ? { verifier, token } : null
    },
  }
}

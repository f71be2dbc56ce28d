/**
 * A credential kind for tests only, registered through buildTestApp's `credentialVerifiers`: a
 * `Bearer lxtest_<random>` token standing for whatever facts the test issued it with. It stands
 * in for the API keys and tenant tokens of later issues, so the Authorization-header path of
 * server/auth/principal.ts is tested before any real credential exists.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { CredentialVerifier, VerifiedCredential } from '../auth/credential-registry'
import { SCOPES } from '../auth/scopes'

/** The token prefix of test credentials. */
export const TEST_CREDENTIAL_PREFIX = 'lxtest_'

/** A test credential kind: its verifier and a way to issue tokens. */
export interface TestCredentials {
  verifier: CredentialVerifier
  /**
   * A new token for `orgId`; unset facts default to a whole-organisation member credential of
   * no user with every scope. Returns the token and the Authorization header carrying it.
   */
  issue(facts: Pick<VerifiedCredential, 'orgId'> & Partial<VerifiedCredential>): {
    token: string
    credentialId: string
    authorization: string
  }
}

/** Creates an empty test credential kind. */
export function createTestCredentials(): TestCredentials {
  const issued = new Map<string, VerifiedCredential>()
  return {
    verifier: {
      scheme: 'Bearer',
      prefix: TEST_CREDENTIAL_PREFIX,
      verify: async (token) => issued.get(token) ?? null,
    },
    issue(facts) {
      const token = `${TEST_CREDENTIAL_PREFIX}${randomBytes(24).toString('base64url')}`
      const credential: VerifiedCredential = {
        credentialId: randomUUID(),
        userId: null,
        role: 'member',
        scopes: SCOPES,
        appId: null,
        actorType: 'api_key',
        ...facts,
      }
      issued.set(token, credential)
      return {
        token,
        credentialId: credential.credentialId,
        authorization: `Bearer ${token}`,
      }
    },
  }
}

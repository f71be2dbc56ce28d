/** Test helper: a tenant token minted through the API (decision 0048). */
import { expect } from 'vitest'
import type { TenantTokenClaims } from '../auth/tenant-token-jwt'
import type { TestApp, TestMember } from './test-app'

/**
 * Mints a token in `actor`'s organisation as `actor` (an admin or owner) with `body` (app_id,
 * ttl_seconds, scope); fails the test unless the answer is 201. Returns the token and its claims.
 */
export async function mintToken(
  t: TestApp,
  actor: TestMember,
  body: Record<string, unknown> = {},
): Promise<{ token: string; claims: TenantTokenClaims }> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${actor.orgId}/tokens`,
    headers: actor.headers,
    payload: body,
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { token: string; claims: TenantTokenClaims }
}

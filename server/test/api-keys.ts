/** Test helpers: API keys asked for through the API, as a person or a program would (0104). */
import { expect } from 'vitest'
import type { Role } from '../db/roles'
import { membershipIdOf } from './membership-id'
import type { TestApp, TestMember } from './test-app'

/** A key as its creation answers it: the secret `key` is shown this once. */
export interface CreatedApiKey {
  id: string
  key: string
  prefix: string
  scopes: string[]
  appId: string | null
  expiresAt: string | null
  revokedAt: string | null
}

/**
 * Asks for a key in `org`'s organisation with `headers` (a session's, `org`'s own by default, or
 * a credential's), named 'Intake form' unless `payload` names it; answers the raw response.
 */
export function askForApiKey(
  t: TestApp,
  org: TestMember,
  payload: Record<string, unknown> = {},
  headers: Record<string, string> = org.headers,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${org.orgId}/api-keys`,
    headers,
    payload: { name: 'Intake form', ...payload },
  })
}

/** A key made as `askForApiKey` asks; fails the test unless the answer is 201. */
export async function createApiKey(
  t: TestApp,
  org: TestMember,
  payload: Record<string, unknown> = {},
  headers: Record<string, string> = org.headers,
): Promise<CreatedApiKey> {
  const res = await askForApiKey(t, org, payload, headers)
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as CreatedApiKey
}

/**
 * `owner` gives `who` the `role` in `owner`'s organisation through the team route; answers the
 * raw response (204 when done).
 */
export async function setMemberRole(t: TestApp, owner: TestMember, who: TestMember, role: Role) {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/v1/orgs/${owner.orgId}/members/${await membershipIdOf(t, who, owner.orgId)}`,
    headers: owner.headers,
    payload: { role },
  })
}

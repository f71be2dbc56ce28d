/** Test helper: an app (decision 8) created through the API. */
import { expect } from 'vitest'
import type { TestApp, TestMember } from './test-app'

/** Creates an app named after `slug` (made unique) in `actor`'s organisation; returns its id. */
export async function appOf(t: TestApp, actor: TestMember, slug: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${actor.orgId}/apps`,
    headers: actor.headers,
    payload: { slug: `${slug}-${Date.now()}-${Math.floor(Math.random() * 1e6)}` },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

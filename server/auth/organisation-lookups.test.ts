import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organization } from '../db/schema'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'
import { eq } from 'drizzle-orm'

let t: TestApp
let alice: TestMember
let mallory: TestMember
let aliceSlug: string
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Alice Chambers')
  mallory = await signedInMember(t, 'Mallory Firm')
  const [org] = await t.database.db
    .select({ slug: organization.slug })
    .from(organization)
    .where(eq(organization.id, alice.orgId))
  aliceSlug = org!.slug
})
afterAll(() => t.close())

/** The parts of an answer an outsider can compare (request ids and dates always differ). */
async function answer(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: mallory.headers, payload })
  const body = res.json() as Record<string, unknown>
  return {
    status: res.statusCode,
    contentType: res.headers['content-type'],
    setCookie: res.headers['set-cookie'] ?? null,
    body: { ...body, instance: undefined },
  }
}

const MISSING_ID = 'no-such-organization-id'
const MISSING_SLUG = 'no-such-firm-slug'

describe("another organisation's existence through better-auth", () => {
  // list-members is switched off (decision 0050); the /api/v1 route answers a non-member 404.
  it.each([
    ['GET', 'get-full-organization?organizationSlug=', 'slug'],
    ['GET', 'get-full-organization?organizationId=', 'id'],
    ['GET', 'get-organization?organizationSlug=', 'slug'],
    ['GET', 'get-active-member-role?organizationSlug=', 'slug'],
  ] as const)(
    '%s %s… answers a non-member the same 404 problem for a real and a missing organisation',
    async (method, path, by) => {
      const real = by === 'slug' ? aliceSlug : alice.orgId
      const missing = by === 'slug' ? MISSING_SLUG : MISSING_ID
      const forReal = await answer(method, `/api/auth/organization/${path}${real}`)
      const forMissing = await answer(method, `/api/auth/organization/${path}${missing}`)
      expect(forReal).toEqual(forMissing)
      expect(forReal.status).toBe(404)
      expect(forReal.contentType).toMatch(/^application\/problem\+json/)
      expect(forReal.body).toMatchObject({ code: 'organization_not_found' })
      expect(JSON.stringify(forReal.body)).not.toContain('Alice')
    },
  )

  it.each([
    ['organizationSlug', () => aliceSlug, MISSING_SLUG],
    ['organizationId', () => alice.orgId, MISSING_ID],
  ] as const)(
    'set-active by %s answers the same 404 problem for a real and a missing organisation',
    async (field, real, missing) => {
      const forReal = await answer('POST', '/api/auth/organization/set-active', {
        [field]: real(),
      })
      const forMissing = await answer('POST', '/api/auth/organization/set-active', {
        [field]: missing,
      })
      expect(forReal).toEqual(forMissing)
      expect(forReal.status).toBe(404)
    },
  )

  it('does not offer a slug check', async () => {
    const taken = await answer('POST', '/api/auth/organization/check-slug', { slug: aliceSlug })
    const free = await answer('POST', '/api/auth/organization/check-slug', { slug: MISSING_SLUG })
    expect(taken).toEqual(free)
    expect(taken.status).toBe(404)
  })

  it('still lets a member read their own organisation', async () => {
    const res = await t.app.inject({
      url: `/api/auth/organization/get-full-organization?organizationSlug=${aliceSlug}`,
      headers: alice.headers,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().id).toBe(alice.orgId)
  })
})

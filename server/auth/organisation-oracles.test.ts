import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { member, organization } from '../db/schema'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../test/test-app'

let t: TestApp
let alice: TestMember
let mallory: TestMember
let aliceSlug: string
let aliceMemberId: string
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Alice Chambers')
  mallory = await signedInMember(t, 'Mallory Firm')
  const [org] = await t.database.db
    .select({ slug: organization.slug })
    .from(organization)
    .where(eq(organization.id, alice.orgId))
  aliceSlug = org!.slug
  const [row] = await t.database.db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.organizationId, alice.orgId), eq(member.userId, alice.userId)))
  aliceMemberId = row!.id
})
afterAll(() => t.close())

/** The parts of an answer an outsider can compare (request ids always differ). */
async function answer(who: TestMember, url: string, payload: object) {
  const res = await t.app.inject({ method: 'POST', url, headers: who.headers, payload })
  const body = res.json() as Record<string, unknown>
  return { status: res.statusCode, body: { ...body, instance: undefined } }
}

describe('organisation slugs tell nothing about other firms', () => {
  const create = (slug: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/organization/create',
      headers: mallory.headers,
      payload: { name: 'Copycat Firm', slug, keepCurrentActiveOrganization: true },
    })

  it('creates an organisation whether the slug asked for is taken or free, with a slug of the same shape', async () => {
    const free = `free-firm-${Date.now()}`
    const [taken, untaken] = [await create(aliceSlug), await create(free)]
    expect(taken.statusCode).toBe(200)
    expect(untaken.statusCode).toBe(200)
    const slugs = [taken.json().slug as string, untaken.json().slug as string]
    expect(slugs[0]).toMatch(new RegExp(`^${aliceSlug}-[a-z0-9]{8}$`))
    expect(slugs[1]).toMatch(new RegExp(`^${free}-[a-z0-9]{8}$`))
    expect(taken.body).not.toContain('already')
  })

  it('keeps a long slug within 100 characters', async () => {
    const res = await create('a'.repeat(100))
    expect(res.statusCode).toBe(200)
    expect(res.json().slug).toMatch(/^a{91}-[a-z0-9]{8}$/)
  })

  it('answers a slug change alike whether the slug is taken or free', async () => {
    const update = (slug: string) =>
      answer(mallory, '/api/auth/organization/update', {
        organizationId: mallory.orgId,
        data: { slug },
      })
    const [taken, free] = [await update(aliceSlug), await update(`free-${Date.now()}`)]
    expect(taken.status).toBe(free.status)
    expect(taken.status).toBe(200)
    expect(JSON.stringify(taken.body)).not.toContain('already')
  })
})

describe("another organisation's member ids tell nothing", () => {
  const INVENTED = 'no-such-member-id'

  /** `who`'s request on a member of their own organisation's team routes (decision 0050). */
  async function onMember(who: TestMember, method: 'PATCH' | 'DELETE', memberId: string) {
    const res = await t.app.inject({
      method,
      url: `/api/v1/orgs/${who.orgId}/members/${memberId}`,
      headers: who.headers,
      ...(method === 'PATCH' ? { payload: { role: 'admin' } } : {}),
    })
    const body = (res.body ? res.json() : {}) as Record<string, unknown>
    return { status: res.statusCode, body: { ...body, instance: undefined } }
  }

  it.each(['PATCH', 'DELETE'] as const)(
    '%s of a member answers an owner alike for a foreign member id and an invented one',
    async (method) => {
      const foreign = await onMember(mallory, method, aliceMemberId)
      const invented = await onMember(mallory, method, INVENTED)
      expect(foreign).toEqual(invented)
      expect(foreign).toMatchObject({ status: 404, body: { code: 'member_not_found' } })
    },
  )

  it('leaves the foreign member as it was, and still lets an owner change a member of their own', async () => {
    const [row] = await t.database.db.select().from(member).where(eq(member.id, aliceMemberId))
    expect(row?.role).toBe('owner')
    const colleague = await signedInWithRole(t, mallory.orgId, 'member')
    const [own] = await t.database.db
      .select({ id: member.id })
      .from(member)
      .where(and(eq(member.organizationId, mallory.orgId), eq(member.userId, colleague.userId)))
    expect((await onMember(mallory, 'PATCH', own!.id)).status).toBe(204)
  })
})

/**
 * Issue 41: the storage quota is counted per organisation, so the organisations one person may
 * own are limited (MAX_ORGANIZATIONS_PER_USER) on every path that creates one: better-auth's
 * create, one at a time or many at once, a clone and an import as a new organisation.
 */
import { and, count, eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { member, organization } from '../db/schema'
import { finishedOrgJob, succeededExport } from '../test/organisation-jobs'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'

/** A limit small enough to reach in a test. */
const LIMIT = 2

const t: TestApp = await buildTestApp({ maxOrganizationsPerUser: LIMIT })
afterAll(() => t.close())

let counter = 0

/** `by` asks better-auth for a new organisation named `name`. */
function createOrganization(by: TestMember, name = 'Another Firm') {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/organization/create',
    headers: by.headers,
    payload: { name, slug: `firm-${Date.now()}-${++counter}` },
  })
}

/** How many organisations `userId` owns, read from the database. */
async function ownedBy(userId: string): Promise<number> {
  const [row] = await t.database.db
    .select({ n: count() })
    .from(member)
    .where(and(eq(member.userId, userId), eq(member.role, 'owner')))
  return row?.n ?? 0
}

/** How many organisations are named `name` (staging ones included). */
async function organisationsNamed(name: string): Promise<number> {
  const [row] = await t.database.db
    .select({ n: count() })
    .from(organization)
    .where(eq(organization.name, name))
  return row?.n ?? 0
}

describe('organisations one person may own', () => {
  it('refuses an organisation past MAX_ORGANIZATIONS_PER_USER with a 403 problem naming the limit, and keeps none of it', async () => {
    const alice = await signedInMember(t, 'First Firm')
    expect((await createOrganization(alice)).statusCode).toBe(200)
    const refused = await createOrganization(alice, 'One Too Many LLP')
    expect(refused.statusCode, refused.body).toBe(403)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    const body = refused.json() as { code: string; detail: string; message: string }
    expect(body.code).toBe('organization_limit_reached')
    expect(body.detail).toMatch(/You already own 2 organizations.*MAX_ORGANIZATIONS_PER_USER/)
    // better-auth's web client shows `message`: the same words.
    expect(body.message).toBe(body.detail)
    expect(await ownedBy(alice.userId)).toBe(LIMIT)
    expect(await organisationsNamed('One Too Many LLP')).toBe(0)
  })

  it('holds the limit against many creations sent at once', async () => {
    const bob = await signedInMember(t, 'Bob Firm')
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createOrganization(bob, `Burst ${i}`)),
    )
    expect(answers.filter((a) => a.statusCode === 200).length).toBeLessThanOrEqual(LIMIT - 1)
    for (const a of answers.filter((a) => a.statusCode !== 200))
      expect(a.json()).toMatchObject({ code: 'organization_limit_reached' })
    expect(await ownedBy(bob.userId)).toBeLessThanOrEqual(LIMIT)
  })

  it('counts only the organisations a person owns, not those they were invited into', async () => {
    const carol = await signedInMember(t, 'Carol Firm')
    const dave = await signedInMember(t, 'Dave Firm')
    // Dave owns one firm and is a member of Carol's: two memberships, one of them his own.
    await t.database.db.insert(member).values({
      id: crypto.randomUUID(),
      organizationId: carol.orgId,
      userId: dave.userId,
      role: 'member',
    })
    expect((await createOrganization(dave)).statusCode).toBe(200)
    expect((await createOrganization(dave)).statusCode).toBe(403)
    expect(await ownedBy(dave.userId)).toBe(LIMIT)
  })

  it('fails a clone past the limit with the limit’s message and leaves no new organisation', async () => {
    const erin = await signedInMember(t, 'Erin Firm')
    expect((await createOrganization(erin)).statusCode).toBe(200)
    const job = await finishedOrgJob(t, erin, 'clone', { target_org_name: 'Erin Clone' })
    expect(job.status).toBe('failed')
    expect(job.errorCode).toBe('organization_limit_reached')
    expect(job.error).toMatch(/You already own 2 organizations/)
    expect(await ownedBy(erin.userId)).toBe(LIMIT)
    expect(await organisationsNamed('Erin Clone')).toBe(0)
    // Nor is its hidden staging organisation left behind.
    expect(await organisationsNamed(`Import ${job.id}`)).toBe(0)
  })

  it('fails an import as a new organisation past the limit with the limit’s message and leaves none', async () => {
    const frank = await signedInMember(t, 'Frank Firm')
    const { file } = await succeededExport(t, frank)
    expect((await createOrganization(frank)).statusCode).toBe(200)
    const form = new FormData()
    form.append('create_org_if_missing', 'true')
    form.append('org_name', 'Frank Imported')
    form.append('zip_file', new Blob([file.rawPayload as Uint8Array<ArrayBuffer>]), 'org.zip')
    const job = await finishedOrgJob(t, frank, 'import', form)
    expect(job.status).toBe('failed')
    expect(job.errorCode).toBe('organization_limit_reached')
    expect(await ownedBy(frank.userId)).toBe(LIMIT)
    expect(await organisationsNamed('Frank Imported')).toBe(0)
  })
})

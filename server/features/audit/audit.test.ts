import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordAudit } from '../../audit/record-audit'
import { withTenant } from '../../db/tenant'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../../test/test-app'

let t: TestApp
let owner: TestMember
let admin: TestMember
let member: TestMember
let mallory: TestMember
let entityId: string
let documentId: string

interface Entry {
  id: string
  actorType: string
  actorId: string | null
  actorName: string | null
  action: string
  targetType: string
  targetId: string | null
  targetExists: boolean
  meta: Record<string, unknown>
  createdAt: string
}
interface AuditPage {
  items: Entry[]
  nextCursor: string | null
  actions: string[]
  actors: { id: string; name: string }[]
}

async function send(
  m: TestMember,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  payload?: object,
) {
  const res = await t.app.inject({
    method,
    url: `/api/v1/orgs/${m.orgId}${path}`,
    headers: m.headers,
    ...(payload ? { payload } : {}),
  })
  expect(res.statusCode, res.body).toBeLessThan(300)
  return (res.body ? res.json() : {}) as { id: string }
}

async function audit(m: TestMember, query = '') {
  return t.app.inject({ url: `/api/v1/orgs/${m.orgId}/audit${query}`, headers: m.headers })
}

async function page(m: TestMember, query = ''): Promise<AuditPage> {
  const res = await audit(m, query)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as AuditPage
}

/** Every entry of the log, walking the pages of `limit` rows from `cursor` (null = the first). */
async function pagesFrom(m: TestMember, limit: number, cursor: string | null): Promise<Entry[]> {
  const entries: Entry[] = []
  let next: string | null = cursor
  do {
    const suffix: string = next ? `&cursor=${encodeURIComponent(next)}` : ''
    const got: AuditPage = await page(m, `?limit=${limit}${suffix}`)
    entries.push(...got.items)
    next = got.nextCursor
  } while (next)
  return entries
}

beforeAll(async () => {
  t = await buildTestApp()
  owner = await signedInMember(t, 'Audit Chambers')
  admin = await signedInWithRole(t, owner.orgId, 'admin')
  member = await signedInWithRole(t, owner.orgId, 'member')
  mallory = await signedInMember(t, 'Mallory Audit')
  entityId = (await send(member, 'POST', '/entities', { name: 'Client' })).id
  await send(admin, 'PATCH', `/entities/${entityId}`, { name: 'Client, renamed' })
  documentId = (await send(owner, 'POST', '/documents/text', { title: 'Memo', content: 'Text.' }))
    .id
  await send(owner, 'DELETE', `/documents/${documentId}`)
}, 60_000)
afterAll(() => t.close())

describe('the audit log API', () => {
  it('links a member and a pending invitation only while they can be opened', async () => {
    const firm = await signedInMember(t, 'Team Audit Chambers')
    const colleague = await signedInWithRole(t, firm.orgId, 'member')
    const members = await t.app.inject({
      url: `/api/v1/orgs/${firm.orgId}/members`,
      headers: firm.headers,
    })
    const memberId = (members.json() as { members: { id: string; userId: string }[] }).members.find(
      (m) => m.userId === colleague.userId,
    )!.id
    await send(firm, 'PATCH', `/members/${memberId}`, { role: 'admin' })
    const invitationId = (
      await send(firm, 'POST', '/invitations', { email: 'invitee@example.test', role: 'member' })
    ).id
    const exists = async () =>
      Object.fromEntries(
        (await page(firm)).items
          .filter((e) => e.targetType === 'member' || e.targetType === 'invitation')
          .map((e) => [e.action, e.targetExists]),
      )
    expect(await exists()).toEqual({ 'member.role_change': true, 'invitation.create': true })
    await send(firm, 'DELETE', `/members/${memberId}`)
    await send(firm, 'DELETE', `/invitations/${invitationId}`)
    expect(await exists()).toEqual({
      'member.role_change': false,
      'member.remove': false,
      'invitation.create': false,
      'invitation.cancel': false,
    })
  })

  it('answers newest first with the actor, and links only targets that still exist', async () => {
    const { items, actions, actors } = await page(owner)
    const times = items.map((e) => e.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
    // The document's indexing job is queued in its transaction: job.create shares its time.
    const own = items.filter((e) => e.action !== 'job.create')
    expect(own.slice(0, 4).map((e) => e.action)).toEqual([
      'document.delete',
      'document.create',
      'entity.update',
      'entity.create',
    ])
    expect(own[2]).toMatchObject({
      actorType: 'user',
      actorId: admin.userId,
      actorName: expect.any(String),
      targetType: 'entity',
      targetId: entityId,
      targetExists: true,
      meta: { fields: ['name'] },
    })
    expect(own[0]).toMatchObject({ targetId: documentId, targetExists: false })
    expect(actions).toEqual(expect.arrayContaining(['entity.create', 'entity.update']))
    expect(actors.map((a) => a.id).sort()).toEqual(
      [owner.userId, admin.userId, member.userId].sort(),
    )
  })

  it('filters by action, actor and time range', async () => {
    const updates = await page(owner, '?action=entity.update')
    expect(updates.items.map((e) => e.targetId)).toEqual([entityId])
    const byMember = await page(owner, `?actorId=${member.userId}`)
    expect(byMember.items.map((e) => e.action)).toEqual(['entity.create'])
    const all = (await page(owner)).items
    const middle = all[2]?.createdAt ?? ''
    const before = await page(owner, `?to=${encodeURIComponent(middle)}`)
    expect(before.items.map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id))
    const since = await page(owner, `?from=${encodeURIComponent(middle)}`)
    expect(since.items.map((e) => e.id)).toEqual(all.slice(0, 3).map((e) => e.id))
    expect((await audit(owner, '?from=yesterday')).statusCode).toBe(400)
  })

  it('pages by keyset: every row once, even when rows arrive between pages', async () => {
    // An organisation of its own, so the rows added here change no other test's log.
    const busy = await signedInMember(t, 'Busy Chambers')
    for (const name of ['A', 'B', 'C', 'D']) await send(busy, 'POST', '/entities', { name })
    const whole = (await page(busy, '?limit=200')).items
    expect(whole.length).toBeGreaterThanOrEqual(5)
    const first = await page(busy, '?limit=2')
    await send(busy, 'POST', '/entities', { name: 'Arrived while paging' })
    const rest = await pagesFrom(busy, 2, first.nextCursor)
    expect([...first.items, ...rest].map((e) => e.id)).toEqual(whole.map((e) => e.id))
    expect((await page(busy, `?limit=${whole.length + 1}`)).nextCursor).toBeNull()
  })

  it('refuses a cursor it did not give with a 400 problem', async () => {
    for (const cursor of ['nonsense', Buffer.from('["x","y"]').toString('base64url')]) {
      const res = await audit(owner, `?cursor=${cursor}`)
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    }
  })

  it('shows an organisation only its own rows, and members none', async () => {
    const foreign = await page(mallory)
    expect(foreign.items.every((e) => e.targetId !== entityId)).toBe(true)
    expect(JSON.stringify(foreign)).not.toContain(owner.userId)
    expect((await audit(member)).statusCode).toBe(403)
  })
})

describe('the audit CSV export', () => {
  it('streams the filtered rows newest first as formula-safe CSV', async () => {
    const principal = {
      orgId: owner.orgId,
      userId: owner.userId,
      role: 'owner',
      actorType: 'user',
    } as const
    await withTenant(t.database.db, principal, (tx) =>
      recordAudit(
        tx,
        principal,
        '=HYPERLINK("http://evil")',
        { type: 'thing', id: '@x' },
        {
          note: '+cmd',
        },
      ),
    )
    const res = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/audit/export`,
      headers: owner.headers,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-/)
    const rows = Papa.parse<string[]>(res.body.trimEnd()).data
    expect(rows[0]).toEqual([
      'created_at',
      'actor_type',
      'actor_id',
      'actor_name',
      'credential_id',
      'action',
      'target_type',
      'target_id',
      'meta',
    ])
    expect(rows[1]?.slice(1, 9)).toEqual([
      'user',
      owner.userId,
      expect.any(String),
      '',
      `'=HYPERLINK("http://evil")`,
      'thing',
      "'@x",
      '{"note":"+cmd"}',
    ])
    const listed = (await page(owner, '?limit=200')).items
    expect(rows.length - 1).toBe(listed.length)
    const filtered = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/audit/export?action=entity.update`,
      headers: owner.headers,
    })
    const updates = Papa.parse<string[]>(filtered.body.trimEnd()).data.slice(1)
    expect(updates.map((r) => r[7])).toEqual([entityId])
  })
})

import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { auditLogs, events, invitation, member, user } from '../db/schema'
import { INVITATIONS_PER_WINDOW } from './auth'
import {
  testAppForFile,
  followLink,
  signedInMember,
  signedInWithRole,
  TEST_ORIGIN,
  uniqueEmail,
  type TestMember,
} from '../test/test-app'
import { membershipIdOf } from '../test/membership-id'

const t = await testAppForFile()
const owner = await signedInMember(t, 'Team Firm')
const admin = await signedInWithRole(t, owner.orgId, 'admin')

const post = (who: { headers: Record<string, string> }, path: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/auth/organization/${path}`,
    headers: who.headers,
    payload,
  })

/** A request to the owner's organisation's team routes (/api/v1, decision 0050) as `who`. */
const team = (
  who: { headers: Record<string, string> },
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  payload?: object,
  orgId = owner.orgId,
) =>
  t.app.inject({
    method,
    url: `/api/v1/orgs/${orgId}${path}`,
    headers: who.headers,
    ...(payload ? { payload } : {}),
  })

/** Invites `email` as `role` into the owner's organisation; the invitation's id. */
async function invite(by: TestMember, email: string, role: string): Promise<string> {
  const res = await team(by, 'POST', '/invitations', { email, role })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

/** Follows the last link mailed to `email`: the invitee's session headers and the redirect. */
async function signInFromMail(email: string) {
  const mail = [...t.mailer.outbox].reverse().find((m) => m.to === email)
  if (!mail?.link) throw new Error(`no mail to ${email}`)
  const res = await followLink(t, mail.link)
  const setCookie = res.headers['set-cookie']
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []
  const cookie = cookies.map((c) => c.split(';')[0]).join('; ')
  expect(cookie).not.toBe('')
  return { mail, location: String(res.headers.location), headers: { cookie, origin: TEST_ORIGIN } }
}

async function membershipOf(email: string) {
  const rows = await t.database.db
    .select({ role: member.role, userId: member.userId })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, owner.orgId), eq(user.email, email)))
  return rows[0] ?? null
}

async function auditActions(targetId: string) {
  const rows = await t.database.db
    .select({ action: auditLogs.action, actorId: auditLogs.actorId })
    .from(auditLogs)
    .where(and(eq(auditLogs.orgId, owner.orgId), eq(auditLogs.targetId, targetId)))
  return rows
}

async function eventKinds() {
  const rows = await t.database.db
    .select({ kind: events.kind, meta: events.meta })
    .from(events)
    .where(eq(events.orgId, owner.orgId))
  return rows
}

describe('an invitation', () => {
  it('mails a sign-in link back to its page; the invitee signs in and joins with the invited role', async () => {
    const email = uniqueEmail('invitee')
    const id = await invite(admin, email, 'admin')
    const { mail, location, headers } = await signInFromMail(email)
    expect(mail.subject).toBe('Join Team Firm on Lexdesk')
    expect(mail.text).toContain('as admin')
    expect(new URL(location).pathname).toBe(`/invitations/${id}`)
    expect(await membershipOf(email)).toBeNull()

    const accepted = await post({ headers }, 'accept-invitation', { invitationId: id })
    expect(accepted.statusCode, accepted.body).toBe(200)
    const joined = await membershipOf(email)
    expect(joined?.role).toBe('admin')
    const docs = await t.app.inject({
      url: `/api/v1/orgs/${owner.orgId}/documents`,
      headers,
    })
    expect(docs.statusCode).toBe(200)

    expect(await auditActions(id)).toEqual([{ action: 'invitation.create', actorId: admin.userId }])
    const { member: joinedMember } = accepted.json() as { member: { id: string } }
    expect(await auditActions(joinedMember.id)).toEqual([
      { action: 'member.join', actorId: joined?.userId },
    ])
    const kinds = (await eventKinds()).filter((e) => JSON.stringify(e.meta).includes(id))
    expect(kinds.map((e) => e.kind).sort()).toEqual(['invitation.created', 'member.joined'])
  })

  it('joins nothing once expired', async () => {
    const email = uniqueEmail('late')
    const id = await invite(owner, email, 'member')
    await t.database.db
      .update(invitation)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitation.id, id))
    const { headers } = await signInFromMail(email)
    const accepted = await post({ headers }, 'accept-invitation', { invitationId: id })
    expect(accepted.statusCode).toBe(400)
    expect(accepted.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(await membershipOf(email)).toBeNull()
  })

  it('joins nothing once cancelled, and the cancellation is audited', async () => {
    const email = uniqueEmail('cancelled')
    const id = await invite(owner, email, 'member')
    const cancelled = await team(admin, 'DELETE', `/invitations/${id}`)
    expect(cancelled.statusCode, cancelled.body).toBe(204)
    const { headers } = await signInFromMail(email)
    const accepted = await post({ headers }, 'accept-invitation', { invitationId: id })
    expect(accepted.statusCode).toBe(400)
    expect(await membershipOf(email)).toBeNull()
    expect((await auditActions(id)).map((a) => a.action).sort()).toEqual([
      'invitation.cancel',
      'invitation.create',
    ])
  })

  it('joins nothing when declined, and the decline is audited as the invitee', async () => {
    const email = uniqueEmail('declines')
    const id = await invite(owner, email, 'member')
    const { headers } = await signInFromMail(email)
    const declined = await post({ headers }, 'reject-invitation', { invitationId: id })
    expect(declined.statusCode, declined.body).toBe(200)
    const accepted = await post({ headers }, 'accept-invitation', { invitationId: id })
    expect(accepted.statusCode).toBe(400)
    expect(await membershipOf(email)).toBeNull()
    const rows = await auditActions(id)
    expect(rows.map((a) => a.action).sort()).toEqual(['invitation.create', 'invitation.reject'])
    expect(rows.find((a) => a.action === 'invitation.reject')?.actorId).not.toBe(owner.userId)
  })

  it('joins nothing for a session whose address is not verified', async () => {
    const email = uniqueEmail('unverified')
    const id = await invite(owner, email, 'member')
    const { headers } = await signInFromMail(email)
    await t.database.db.update(user).set({ emailVerified: false }).where(eq(user.email, email))
    const accepted = await post({ headers }, 'accept-invitation', { invitationId: id })
    expect(accepted.statusCode).toBe(403)
    expect(await membershipOf(email)).toBeNull()
  })

  it('is resent with a fresh link and audited as a resend, not a second invitation', async () => {
    const email = uniqueEmail('resend')
    const id = await invite(owner, email, 'member')
    const before = t.mailer.outbox.filter((m) => m.to === email).length
    const res = await team(owner, 'POST', `/invitations/${id}/resend`)
    expect(res.statusCode, res.body).toBe(200)
    expect((res.json() as { id: string }).id).toBe(id)
    expect(t.mailer.outbox.filter((m) => m.to === email)).toHaveLength(before + 1)
    expect((await auditActions(id)).map((a) => a.action).sort()).toEqual([
      'invitation.create',
      'invitation.resend',
    ])
  })

  it('is not resent once cancelled: nothing mailed, nothing audited but the two changes', async () => {
    const email = uniqueEmail('gone')
    const id = await invite(owner, email, 'member')
    expect((await team(owner, 'DELETE', `/invitations/${id}`)).statusCode).toBe(204)
    const before = t.mailer.outbox.filter((m) => m.to === email).length
    const res = await team(owner, 'POST', `/invitations/${id}/resend`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'invitation_not_found' })
    expect(t.mailer.outbox.filter((m) => m.to === email)).toHaveLength(before)
    expect((await auditActions(id)).map((a) => a.action).sort()).toEqual([
      'invitation.cancel',
      'invitation.create',
    ])
  })

  it('sends the plain sign-in text when a client names an invitation to someone else', async () => {
    const id = await invite(owner, uniqueEmail('target'), 'member')
    const stranger = uniqueEmail('stranger')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email: stranger, metadata: { invitationId: id } },
    })
    expect(res.statusCode, res.body).toBe(200)
    const mail = [...t.mailer.outbox].reverse().find((m) => m.to === stranger)
    expect(mail?.subject).toBe('Your Lexdesk sign-in link')
  })
})

describe('roles', () => {
  it('an admin can neither invite an owner nor make someone owner', async () => {
    const byInvite = await team(admin, 'POST', '/invitations', {
      email: uniqueEmail('would-be-owner'),
      role: 'owner',
    })
    expect(byInvite.statusCode).toBe(403)
    const colleague = await signedInWithRole(t, owner.orgId, 'member')
    const memberId = await membershipIdOf(t, colleague, owner.orgId)
    const promoted = await team(admin, 'PATCH', `/members/${memberId}`, { role: 'owner' })
    expect(promoted.statusCode).toBe(403)
    expect(await membershipOf(colleague.email)).toMatchObject({ role: 'member' })
    expect(await auditActions(memberId)).toEqual([])
  })

  it('the last owner can be neither removed, demoted nor leave', async () => {
    const firm = await signedInMember(t, 'Solo Firm')
    const [row] = await t.database.db
      .select({ id: member.id })
      .from(member)
      .where(eq(member.organizationId, firm.orgId))
    const demoted = await team(firm, 'PATCH', `/members/${row!.id}`, { role: 'admin' }, firm.orgId)
    expect(demoted.statusCode).toBe(400)
    const removed = await team(firm, 'DELETE', `/members/${row!.id}`, undefined, firm.orgId)
    expect(removed.statusCode).toBe(400)
    const left = await team(firm, 'POST', '/leave', undefined, firm.orgId)
    expect(left.statusCode).toBe(400)
    const [still] = await t.database.db.select().from(member).where(eq(member.id, row!.id))
    expect(still?.role).toBe('owner')
  })

  it('audits a role change, a removal and a leave, each by the member who made it', async () => {
    const promotedOne = await signedInWithRole(t, owner.orgId, 'member')
    const removedOne = await signedInWithRole(t, owner.orgId, 'member')
    const leaver = await signedInWithRole(t, owner.orgId, 'member')
    const [promotedId, removedId, leaverId] = await Promise.all(
      [promotedOne, removedOne, leaver].map((who) => membershipIdOf(t, who, owner.orgId)),
    )
    const changed = await team(owner, 'PATCH', `/members/${promotedId}`, { role: 'admin' })
    expect(changed.statusCode, changed.body).toBe(204)
    const removed = await team(admin, 'DELETE', `/members/${removedId}`)
    expect(removed.statusCode, removed.body).toBe(204)
    const left = await team(leaver, 'POST', '/leave')
    expect(left.statusCode, left.body).toBe(204)

    expect(await auditActions(promotedId!)).toEqual([
      { action: 'member.role_change', actorId: owner.userId },
    ])
    expect(await auditActions(removedId!)).toEqual([
      { action: 'member.remove', actorId: admin.userId },
    ])
    expect(await auditActions(leaverId!)).toEqual([
      { action: 'member.leave', actorId: leaver.userId },
    ])
    const kinds = (await eventKinds()).map((e) => e.kind)
    expect(kinds).toEqual(
      expect.arrayContaining(['member.role_changed', 'member.removed', 'member.left']),
    )
  })
})

describe('invitation mail', () => {
  it(`is limited to ${INVITATIONS_PER_WINDOW} invitations per person and window, resends included`, async () => {
    const firm = await signedInMember(t, 'Busy Firm')
    const email = uniqueEmail('flooded')
    const created = await team(firm, 'POST', '/invitations', { email, role: 'member' }, firm.orgId)
    expect(created.statusCode).toBe(201)
    const { id } = created.json() as { id: string }
    const resend = () => team(firm, 'POST', `/invitations/${id}/resend`, undefined, firm.orgId)
    for (let i = 1; i < INVITATIONS_PER_WINDOW; i++) expect((await resend()).statusCode).toBe(200)
    const refused = await resend()
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(t.mailer.outbox.filter((m) => m.to === email)).toHaveLength(INVITATIONS_PER_WINDOW)
  })
})

describe("better-auth's own team endpoints", () => {
  it.each(['invite-member', 'cancel-invitation', 'update-member-role', 'remove-member', 'leave'])(
    '%s is closed: the /api/v1 route is the one door',
    async (path) => {
      const res = await post(owner, path, { organizationId: owner.orgId })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toMatchObject({ code: 'route_not_found' })
    },
  )

  it.each(['list-members', 'list-invitations'])('%s is closed', async (path) => {
    const res = await t.app.inject({
      url: `/api/auth/organization/${path}?organizationId=${owner.orgId}`,
      headers: owner.headers,
    })
    expect(res.statusCode).toBe(404)
  })
})

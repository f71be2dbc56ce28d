/**
 * The team routes of /api/v1 (decision 0050): they answer with better-auth's rules (service.ts
 * calls its organization API) and leave the audit rows of membership-audit.ts; the authorisation
 * and audit walks cover their roles and scopes.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { auditLogs, invitation, member, UNSENT_INVITATION_STATUS } from '../../db/schema'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  uniqueEmail,
  type TestMember,
} from '../../test/test-app'
import { membershipIdOf } from '../../test/membership-id'
import { createTestCredentials } from '../../test/test-credentials'

const credentials = createTestCredentials()
const t = await buildTestApp({ credentialVerifiers: [credentials.verifier] })
afterAll(() => t.close())

const owner = await signedInMember(t, 'Team Route Firm')
const admin = await signedInWithRole(t, owner.orgId, 'admin')
const colleague = await signedInWithRole(t, owner.orgId, 'member')
const base = `/api/v1/orgs/${owner.orgId}`

const call = (
  who: TestMember,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `${base}${path}`,
    headers: who.headers,
    ...(payload ? { payload } : {}),
  })

async function auditOf(targetId: string) {
  return t.database.db
    .select({ action: auditLogs.action, actorId: auditLogs.actorId })
    .from(auditLogs)
    .where(and(eq(auditLogs.orgId, owner.orgId), eq(auditLogs.targetId, targetId)))
}

describe('the member list', () => {
  it('is read by a member, with names, addresses and roles, oldest first', async () => {
    const res = await call(colleague, 'GET', '/members')
    expect(res.statusCode, res.body).toBe(200)
    const { members } = res.json() as { members: { email: string; role: string }[] }
    expect(members.slice(0, 3)).toEqual([
      expect.objectContaining({ email: owner.email, role: 'owner' }),
      expect.objectContaining({ email: admin.email, role: 'admin' }),
      expect.objectContaining({ email: colleague.email, role: 'member' }),
    ])
  })

  it('does not show a member the pending invitations, here nor through get-full-organization', async () => {
    const invited = uniqueEmail('unseen')
    expect(
      (await call(admin, 'POST', '/invitations', { email: invited, role: 'member' })).statusCode,
    ).toBe(201)
    const listed = await call(colleague, 'GET', '/invitations')
    expect(listed.statusCode).toBe(403)
    const full = await t.app.inject({
      url: `/api/auth/organization/get-full-organization?organizationId=${owner.orgId}`,
      headers: colleague.headers,
    })
    expect(full.statusCode).toBe(200)
    expect(full.body).not.toContain(invited)
    expect((await call(admin, 'GET', '/invitations')).body).toContain(invited)
  })
})

describe('invitations', () => {
  it('are created, resent and cancelled by an admin, each change audited as the admin', async () => {
    const email = uniqueEmail('invitee')
    const created = await call(admin, 'POST', '/invitations', { email, role: 'admin' })
    expect(created.statusCode, created.body).toBe(201)
    const { id } = created.json() as { id: string }
    expect(created.json()).toMatchObject({ email, role: 'admin' })
    expect(t.mailer.outbox.filter((m) => m.to === email)).toHaveLength(1)

    const resent = await call(admin, 'POST', `/invitations/${id}/resend`)
    expect(resent.statusCode, resent.body).toBe(200)
    expect(t.mailer.outbox.filter((m) => m.to === email)).toHaveLength(2)

    const listed = (await call(admin, 'GET', '/invitations')).json() as {
      invitations: { id: string }[]
    }
    expect(listed.invitations.map((i) => i.id)).toContain(id)

    expect((await call(admin, 'DELETE', `/invitations/${id}`)).statusCode).toBe(204)
    const after = (await call(admin, 'GET', '/invitations')).json() as {
      invitations: { id: string }[]
    }
    expect(after.invitations.map((i) => i.id)).not.toContain(id)
    const again = await call(admin, 'DELETE', `/invitations/${id}`)
    expect(again.statusCode).toBe(404)
    expect(again.json()).toMatchObject({ code: 'invitation_not_found' })

    expect((await auditOf(id)).map((r) => r.action).sort()).toEqual([
      'invitation.cancel',
      'invitation.create',
      'invitation.resend',
    ])
    expect((await auditOf(id)).every((r) => r.actorId === admin.userId)).toBe(true)
  })

  it("list an import's unsent invitation as not sent, mail nothing for it, send it as a new invitation and cancel another (decision 0103)", async () => {
    const unsent = (email: string) => ({
      id: crypto.randomUUID(),
      organizationId: owner.orgId,
      email,
      role: 'member',
      status: UNSENT_INVITATION_STATUS,
      expiresAt: new Date(Date.now() - 1000),
      inviterId: owner.userId,
    })
    const [toSend, toCancel] = [unsent(uniqueEmail('imported')), unsent(uniqueEmail('imported'))]
    await t.database.db.insert(invitation).values([toSend, toCancel])
    const listed = (await call(admin, 'GET', '/invitations')).json() as {
      invitations: { id: string; sent: boolean }[]
    }
    // Unsent, it is listed even past its expiry: sending gives it one.
    expect(listed.invitations.filter((i) => i.id === toSend.id)).toEqual([
      expect.objectContaining({ email: toSend.email, sent: false }),
    ])
    expect(t.mailer.outbox.filter((m) => m.to === toSend.email)).toHaveLength(0)

    const sent = await call(admin, 'POST', `/invitations/${toSend.id}/resend`)
    expect(sent.statusCode, sent.body).toBe(200)
    const fresh = sent.json() as { id: string; sent: boolean; expiresAt: string }
    expect(fresh).toMatchObject({ email: toSend.email, role: 'member', sent: true })
    expect(new Date(fresh.expiresAt).getTime()).toBeGreaterThan(Date.now())
    expect(t.mailer.outbox.filter((m) => m.to === toSend.email)).toHaveLength(1)
    expect((await auditOf(fresh.id)).map((r) => [r.action, r.actorId])).toEqual([
      ['invitation.create', admin.userId],
    ])
    const rows = await t.database.db
      .select({ status: invitation.status })
      .from(invitation)
      .where(eq(invitation.email, toSend.email))
    expect(rows).toEqual([{ status: 'pending' }])

    expect((await call(admin, 'DELETE', `/invitations/${toCancel.id}`)).statusCode).toBe(204)
    const after = (await call(admin, 'GET', '/invitations')).json() as {
      invitations: { id: string }[]
    }
    expect(after.invitations.map((i) => i.id)).not.toContain(toCancel.id)
  })

  it('of another organisation are answered as missing, even to its admin', async () => {
    const other = await signedInMember(t, 'Other Firm')
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${other.orgId}/invitations`,
      headers: other.headers,
      payload: { email: uniqueEmail('elsewhere'), role: 'member' },
    })
    const { id } = res.json() as { id: string }
    // The owner of "Other Firm" acting through this firm's URL is not a member here: 404.
    expect((await call(other, 'DELETE', `/invitations/${id}`)).statusCode).toBe(404)
    // This firm's admin names the other firm's invitation: not one of this firm's.
    const cancel = await call(admin, 'DELETE', `/invitations/${id}`)
    expect(cancel.json()).toMatchObject({ code: 'invitation_not_found' })
    const resend = await call(admin, 'POST', `/invitations/${id}/resend`)
    expect(resend.json()).toMatchObject({ code: 'invitation_not_found' })
  })

  it('refuses a malformed address with a problem', async () => {
    const res = await call(admin, 'POST', '/invitations', {
      email: 'not an address',
      role: 'member',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'validation_failed' })
  })
})

describe('roles', () => {
  it('an admin can neither invite an owner nor make someone owner; an owner can', async () => {
    const byInvite = await call(admin, 'POST', '/invitations', {
      email: uniqueEmail('would-be-owner'),
      role: 'owner',
    })
    expect(byInvite.statusCode).toBe(403)
    const promoted = await signedInWithRole(t, owner.orgId, 'member')
    const memberId = await membershipIdOf(t, promoted, owner.orgId)
    const byAdmin = await call(admin, 'PATCH', `/members/${memberId}`, { role: 'owner' })
    expect(byAdmin.statusCode).toBe(403)
    expect(await auditOf(memberId)).toEqual([])
    const byOwner = await call(owner, 'PATCH', `/members/${memberId}`, { role: 'owner' })
    expect(byOwner.statusCode, byOwner.body).toBe(204)
    expect(await auditOf(memberId)).toEqual([
      { action: 'member.role_change', actorId: owner.userId },
    ])
  })

  it('the last owner can be neither removed, demoted nor leave', async () => {
    const firm = await signedInMember(t, 'Solo Firm')
    const [row] = await t.database.db
      .select({ id: member.id })
      .from(member)
      .where(eq(member.organizationId, firm.orgId))
    const url = `/api/v1/orgs/${firm.orgId}`
    const send = (method: 'PATCH' | 'DELETE' | 'POST', path: string, payload?: object) =>
      t.app.inject({
        method,
        url: `${url}${path}`,
        headers: firm.headers,
        ...(payload ? { payload } : {}),
      })
    expect((await send('PATCH', `/members/${row!.id}`, { role: 'admin' })).statusCode).toBe(400)
    expect((await send('DELETE', `/members/${row!.id}`)).statusCode).toBe(400)
    const left = await send('POST', '/leave')
    expect(left.statusCode).toBe(400)
    expect(left.headers['content-type']).toMatch(/^application\/problem\+json/)
    const [still] = await t.database.db.select().from(member).where(eq(member.id, row!.id))
    expect(still?.role).toBe('owner')
  })

  it('a removed member is refused at once, and the removal is audited', async () => {
    const leaving = await signedInWithRole(t, owner.orgId, 'member')
    expect((await call(leaving, 'GET', '/members')).statusCode).toBe(200)
    const memberId = await membershipIdOf(t, leaving, owner.orgId)
    expect((await call(admin, 'DELETE', `/members/${memberId}`)).statusCode).toBe(204)
    expect((await call(leaving, 'GET', '/members')).statusCode).toBe(404)
    expect(await auditOf(memberId)).toEqual([{ action: 'member.remove', actorId: admin.userId }])
    const twice = await call(admin, 'DELETE', `/members/${memberId}`)
    expect(twice.json()).toMatchObject({ code: 'member_not_found' })
  })

  it('a member leaves and is refused at once, the leave audited as theirs', async () => {
    const leaving = await signedInWithRole(t, owner.orgId, 'member')
    const memberId = await membershipIdOf(t, leaving, owner.orgId)
    expect((await call(leaving, 'GET', '/members')).statusCode).toBe(200)
    expect((await call(leaving, 'POST', '/leave')).statusCode).toBe(204)
    expect((await call(leaving, 'GET', '/members')).statusCode).toBe(404)
    expect(await auditOf(memberId)).toEqual([{ action: 'member.leave', actorId: leaving.userId }])
  })
})

describe('an API credential', () => {
  it('cannot manage the team: team changes need the signed-in person', async () => {
    const { authorization } = credentials.issue({
      orgId: owner.orgId,
      userId: owner.userId,
      role: 'owner',
      scopes: ['read', 'write', 'admin'],
    })
    const res = await t.app.inject({
      method: 'POST',
      url: `${base}/invitations`,
      headers: { authorization, origin: owner.headers.origin },
      payload: { email: uniqueEmail('by-key'), role: 'member' },
    })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'session_required' })
  })
})

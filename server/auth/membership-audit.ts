/**
 * better-auth's `hooks.after` for the team endpoints (issue 22): each successful change of an
 * organisation's members or invitations leaves one audit row and one event, written by the
 * signed-in user who made it. better-auth writes the change through its adapter, outside any
 * tenant transaction, so the row follows the change instead of sharing its transaction (decision
 * 0045). Recorded actions (audit action / event kind):
 * - invite-member: `invitation.create` / `invitation.created`, or with `resend` (kept only when a
 *   pending invitation exists, organisation-rules.ts) `invitation.resend` / `invitation.resent`;
 * - cancel-invitation: `invitation.cancel` / `invitation.cancelled`;
 * - reject-invitation: `invitation.reject` / `invitation.declined`;
 * - accept-invitation: `member.join` / `member.joined`;
 * - update-member-role: `member.role_change` / `member.role_changed`;
 * - remove-member: `member.remove` / `member.removed`;
 * - leave: `member.leave` / `member.left`.
 */
import { createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api'
import type { Db } from '../db/client'
import { withTenant } from '../db/tenant'
import { recordAudit } from '../audit/record-audit'
import { recordEvent } from '../events/record-event'
import type { EventKind, EventMeta } from '../events/event-kinds'

interface InvitationRow {
  id: string
  organizationId: string
  email: string
  role: string | null
}
interface MemberRow {
  id: string
  organizationId: string
  userId: string
  role: string
}

/** What one change records: the organisation, audit action and target, event kind, metadata. */
interface Change {
  orgId: string
  action: string
  target: { type: 'invitation' | 'member'; id: string }
  event: EventKind
  meta: Record<string, unknown>
}

const invitationChange =
  (action: string, event: EventKind) =>
  (invitation: InvitationRow): Change => ({
    orgId: invitation.organizationId,
    action,
    target: { type: 'invitation', id: invitation.id },
    event,
    meta: { invitationId: invitation.id, email: invitation.email, role: invitation.role },
  })

const memberChange =
  (action: string, event: EventKind) =>
  (member: MemberRow, extra: Record<string, unknown> = {}): Change => ({
    orgId: member.organizationId,
    action,
    target: { type: 'member', id: member.id },
    event,
    meta: { memberId: member.id, userId: member.userId, role: member.role, ...extra },
  })

/** The change an answered team request made, by better-auth path; undefined for other paths. */
const CHANGES: Record<string, (returned: unknown, body: Record<string, unknown>) => Change> = {
  '/organization/invite-member': (returned, body) =>
    body.resend === true
      ? invitationChange('invitation.resend', 'invitation.resent')(returned as InvitationRow)
      : invitationChange('invitation.create', 'invitation.created')(returned as InvitationRow),
  '/organization/cancel-invitation': (returned) =>
    invitationChange('invitation.cancel', 'invitation.cancelled')(returned as InvitationRow),
  '/organization/reject-invitation': (returned) =>
    invitationChange(
      'invitation.reject',
      'invitation.declined',
    )((returned as { invitation: InvitationRow }).invitation),
  '/organization/accept-invitation': (returned) => {
    const { invitation, member } = returned as { invitation: InvitationRow; member: MemberRow }
    return memberChange('member.join', 'member.joined')(member, { invitationId: invitation.id })
  },
  '/organization/update-member-role': (returned) =>
    memberChange('member.role_change', 'member.role_changed')(returned as MemberRow),
  '/organization/remove-member': (returned) =>
    memberChange('member.remove', 'member.removed')((returned as { member: MemberRow }).member),
  '/organization/leave': (returned) =>
    memberChange('member.leave', 'member.left')(returned as MemberRow),
}

/** The middleware for `hooks.after`: records the change of a successful team request. */
export function membershipAudit(db: Db) {
  return createAuthMiddleware(async (ctx) => {
    const change = CHANGES[ctx.path]
    const returned = ctx.context.returned
    if (!change || returned == null || isAPIError(returned) || returned instanceof Response) return
    const session = await getSessionFromCtx(ctx)
    if (!session) return
    const { orgId, action, target, event, meta } = change(
      returned,
      (ctx.body ?? {}) as Record<string, unknown>,
    )
    const principal = { orgId, userId: session.user.id, role: 'member', actorType: 'user' } as const
    await withTenant(db, principal, async (tx) => {
      await recordAudit(tx, principal, action, target, meta)
      // The kind's schema checks the metadata at run time (event-kinds.ts).
      await recordEvent(tx, principal, event, meta as EventMeta<typeof event>)
    })
  })
}

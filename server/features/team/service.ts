/**
 * The team actions of `/api/v1` (issue 22, decision 0050), each one call of better-auth's
 * organization API (`auth.api.*`) with the caller's own session headers, so its rules stay in one
 * place: only owners and admins invite, cancel, change roles and remove; an admin never grants
 * owner; the last owner is neither removed, demoted nor lets itself leave; and the hooks of
 * auth.ts run as for its HTTP endpoints (organisation-rules.ts rewrites foreign member ids and
 * stray resends; membership-audit.ts writes the audit row and event of each change).
 * better-auth's refusals become problems (`fromAuth`); a missing member or invitation is a 404.
 */
import { isAPIError } from 'better-auth/api'
import type { Auth } from '../../auth/auth'
import { toRole, type Role } from '../../db/roles'
import { UNSENT_INVITATION_STATUS } from '../../db/schema'
import { AppError } from '../../errors/app-error'
import { codeForStatus } from '../../errors/error-codes'

/** Who acts, for which organisation: the request's own better-auth session headers. */
export interface TeamCaller {
  orgId: string
  headers: Headers
}

/** A member as the routes answer it (MemberSchema). */
export interface TeamMember {
  id: string
  userId: string
  name: string
  email: string
  role: Role
  joinedAt: string
}

/** A pending invitation as the routes answer it (InvitationSchema). */
export interface TeamInvitation {
  id: string
  email: string
  role: Role
  expiresAt: string
  /** False for an invitation an organisation import made and nobody has sent yet (decision 0103). */
  sent: boolean
}

interface InvitationRow {
  id: string
  email: string
  role: string | null
  status: string
  expiresAt: Date | string
}

const toInvitation = (row: InvitationRow): TeamInvitation => ({
  id: row.id,
  email: row.email,
  role: toRole(row.role ?? 'member'),
  expiresAt: new Date(row.expiresAt).toISOString(),
  sent: row.status !== UNSENT_INVITATION_STATUS,
})

/** Whether `row` is listed, sent and cancelled: pending and unexpired, or unsent (decision 0103). */
const isOpen = (row: InvitationRow, now: Date) =>
  row.status === UNSENT_INVITATION_STATUS ||
  (row.status === 'pending' && new Date(row.expiresAt) > now)

/** better-auth's codes for a missing target: the 404 of ours that names it. */
const NOT_FOUND = {
  MEMBER_NOT_FOUND: () => new AppError('member_not_found', 'Member not found'),
  INVITATION_NOT_FOUND: () => new AppError('invitation_not_found', 'Invitation not found'),
} as const

/**
 * Awaits a better-auth call; its refusal (an APIError below 500) becomes an AppError with
 * better-auth's message as the detail (its messages are written for users, e.g. "You cannot
 * leave the organization as the only owner") and the code of its status, or the 404 of a missing
 * member or invitation. Anything else is rethrown (a 500).
 */
export async function fromAuth<T>(call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (error) {
    if (!isAPIError(error) || error.statusCode >= 500) throw error
    const code = (error.body as { code?: unknown } | undefined)?.code
    const missing = NOT_FOUND[code as keyof typeof NOT_FOUND]
    if (missing) throw missing()
    throw new AppError(codeForStatus(error.statusCode), error.message || 'Refused')
  }
}

/** The organisation's members, oldest first (better-auth's limit of members is 100). */
export async function listTeamMembers(auth: Auth, caller: TeamCaller): Promise<TeamMember[]> {
  const { members } = await fromAuth(
    auth.api.listMembers({ query: { organizationId: caller.orgId }, headers: caller.headers }),
  )
  return members
    .map((m) => ({
      id: m.id,
      userId: m.userId,
      name: m.user.name,
      email: m.user.email,
      role: toRole(m.role),
      joinedAt: new Date(m.createdAt).toISOString(),
    }))
    .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt))
}

/** Every invitation of the organisation, any status (better-auth: owners and admins only). */
function allInvitations(auth: Auth, caller: TeamCaller): Promise<InvitationRow[]> {
  return fromAuth(
    auth.api.listInvitations({ query: { organizationId: caller.orgId }, headers: caller.headers }),
  )
}

/**
 * The pending, unexpired invitations and the unsent ones an import made (which never expire
 * unsent: sending gives them a fresh expiry), soonest to expire first.
 */
export async function listPendingInvitations(
  auth: Auth,
  caller: TeamCaller,
  now = new Date(),
): Promise<TeamInvitation[]> {
  return (await allInvitations(auth, caller))
    .filter((row) => isOpen(row, now))
    .map(toInvitation)
    .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt))
}

/** Invites `email` as `role` (mailing a sign-in link to it, auth.ts); the new invitation. */
export async function inviteMember(
  auth: Auth,
  caller: TeamCaller,
  input: { email: string; role: Role },
): Promise<TeamInvitation> {
  const created = await fromAuth(
    auth.api.createInvitation({
      body: { email: input.email, role: input.role, organizationId: caller.orgId },
      headers: caller.headers,
    }),
  )
  return toInvitation(created as InvitationRow)
}

/**
 * The organisation's pending or unsent invitation `invitationId`; invitation_not_found otherwise.
 */
async function pendingInvitation(auth: Auth, caller: TeamCaller, invitationId: string) {
  const found = (await allInvitations(auth, caller)).find(
    (row) =>
      row.id === invitationId &&
      (row.status === 'pending' || row.status === UNSENT_INVITATION_STATUS),
  )
  if (!found) throw NOT_FOUND.INVITATION_NOT_FOUND()
  return found
}

/**
 * Mails pending invitation `invitationId` again (with a fresh expiry); the invitation. An unsent
 * one (an import's, decision 0103) is sent for the first time: better-auth invites its address
 * with its role, under the caller's rules and in the audit like any invitation, and the unsent
 * row goes; the new invitation is answered.
 */
export async function resendInvitation(
  auth: Auth,
  caller: TeamCaller,
  invitationId: string,
): Promise<TeamInvitation> {
  const found = await pendingInvitation(auth, caller, invitationId)
  if (found.status === UNSENT_INVITATION_STATUS) {
    const sent = await inviteMember(auth, caller, {
      email: found.email,
      role: toRole(found.role ?? 'member'),
    })
    const { adapter } = await auth.$context
    await adapter.delete({ model: 'invitation', where: [{ field: 'id', value: found.id }] })
    return sent
  }
  const resent = await fromAuth(
    auth.api.createInvitation({
      body: {
        email: found.email,
        role: toRole(found.role ?? 'member'),
        organizationId: caller.orgId,
        resend: true,
      },
      headers: caller.headers,
    }),
  )
  return toInvitation(resent as InvitationRow)
}

/** Cancels pending invitation `invitationId` of the organisation. */
export async function cancelInvitation(
  auth: Auth,
  caller: TeamCaller,
  invitationId: string,
): Promise<void> {
  // better-auth looks the id up in every organisation: this one's is checked first.
  await pendingInvitation(auth, caller, invitationId)
  await fromAuth(auth.api.cancelInvitation({ body: { invitationId }, headers: caller.headers }))
}

/** Gives member `memberId` the role `role`. */
export async function changeMemberRole(
  auth: Auth,
  caller: TeamCaller,
  memberId: string,
  role: Role,
): Promise<void> {
  await fromAuth(
    auth.api.updateMemberRole({
      body: { memberId, role, organizationId: caller.orgId },
      headers: caller.headers,
    }),
  )
}

/** Removes member `memberId` from the organisation. */
export async function removeMember(
  auth: Auth,
  caller: TeamCaller,
  memberId: string,
): Promise<void> {
  await fromAuth(
    auth.api.removeMember({
      body: { memberIdOrEmail: memberId, organizationId: caller.orgId },
      headers: caller.headers,
    }),
  )
}

/** The caller leaves the organisation. */
export async function leaveOrganisation(auth: Auth, caller: TeamCaller): Promise<void> {
  await fromAuth(
    auth.api.leaveOrganization({
      body: { organizationId: caller.orgId },
      headers: caller.headers,
    }),
  )
}

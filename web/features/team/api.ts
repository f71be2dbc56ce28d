/**
 * The organisation's team through better-auth's organization endpoints (decision 0045): members
 * and pending invitations (query keyed `['orgs', orgId, 'team']`) and the changes owners and
 * admins make. Every call rejects with an ApiError carrying the server's message.
 */
import { queryOptions } from '@tanstack/react-query'
import { ApiError } from '../../lib/api'
import { authClient, authErrorMessage } from '../../lib/auth-client'

/** An organisation role, member < admin < owner. */
export type TeamRole = 'member' | 'admin' | 'owner'

/** A member as the Members screen shows it. */
export interface TeamMember {
  id: string
  userId: string
  name: string
  email: string
  role: TeamRole
  joinedAt: Date
}

/** A pending invitation. */
export interface TeamInvitation {
  id: string
  email: string
  role: TeamRole
  expiresAt: Date
}

export interface Team {
  members: TeamMember[]
  invitations: TeamInvitation[]
}

/** The highest role named in better-auth's stored role (one role, or several joined by commas). */
export function toTeamRole(stored: string | null | undefined): TeamRole {
  const names = (stored ?? '').split(',').map((name) => name.trim())
  if (names.includes('owner')) return 'owner'
  return names.includes('admin') ? 'admin' : 'member'
}

/** better-auth's `{ data, error }` answer: the data, or an ApiError with the server's words. */
export function dataOf<T>(result: {
  data: T | null
  error: { status: number; statusText: string; message?: string } | null
}): T {
  if (result.error) {
    const { status, statusText } = result.error
    throw new ApiError(status, { detail: authErrorMessage(result.error) }, statusText)
  }
  if (result.data === null) throw new ApiError(500, { detail: 'Empty answer' }, 'Empty answer')
  return result.data
}

/** Members (oldest first) and pending, unexpired invitations of `orgId`. */
export const teamQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'team'] as const,
    queryFn: async (): Promise<Team> => {
      const org = dataOf(
        await authClient.organization.getFullOrganization({
          query: { organizationId: orgId, membersLimit: 1000 },
        }),
      )
      const now = Date.now()
      return {
        members: org.members
          .map((m) => ({
            id: m.id,
            userId: m.userId,
            name: m.user.name,
            email: m.user.email,
            role: toTeamRole(m.role),
            joinedAt: new Date(m.createdAt),
          }))
          .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime()),
        invitations: org.invitations
          .filter((i) => i.status === 'pending' && new Date(i.expiresAt).getTime() > now)
          .map((i) => ({
            id: i.id,
            email: i.email,
            role: toTeamRole(i.role),
            expiresAt: new Date(i.expiresAt),
          })),
      }
    },
  })

/** The team changes, each for organisation `orgId`. */
export const teamActions = (orgId: string) => ({
  invite: async (email: string, role: TeamRole) =>
    dataOf(await authClient.organization.inviteMember({ email, role, organizationId: orgId })),
  resend: async (invitation: TeamInvitation) =>
    dataOf(
      await authClient.organization.inviteMember({
        email: invitation.email,
        role: invitation.role,
        organizationId: orgId,
        resend: true,
      }),
    ),
  cancel: async (invitationId: string) =>
    dataOf(await authClient.organization.cancelInvitation({ invitationId })),
  changeRole: async (memberId: string, role: TeamRole) =>
    dataOf(
      await authClient.organization.updateMemberRole({ memberId, role, organizationId: orgId }),
    ),
  remove: async (memberId: string) =>
    dataOf(
      await authClient.organization.removeMember({
        memberIdOrEmail: memberId,
        organizationId: orgId,
      }),
    ),
  leave: async () => dataOf(await authClient.organization.leave({ organizationId: orgId })),
})

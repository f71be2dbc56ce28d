/**
 * The organisation's team through the `/api/v1` team routes (decision 0050): its members (every
 * member reads them), its pending invitations (owners and admins) and the changes owners and
 * admins make. Queries are keyed under `['orgs', orgId, 'team']`; every call rejects with an
 * ApiError carrying the server's problem.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

/** An organisation role, member < admin < owner. */
export type TeamRole = components['schemas']['Member']['role']

/** A member as the Members screen shows it. */
export interface TeamMember extends Omit<components['schemas']['Member'], 'joinedAt'> {
  joinedAt: Date
}

/** A pending invitation. */
export interface TeamInvitation extends Omit<components['schemas']['Invitation'], 'expiresAt'> {
  expiresAt: Date
}

/** The key every team query lives under (a change refetches them all). */
export const teamKey = (orgId: string) => ['orgs', orgId, 'team'] as const

/** Members of `orgId`, oldest first. */
export const membersQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...teamKey(orgId), 'members'] as const,
    queryFn: async ({ signal }): Promise<TeamMember[]> => {
      const { members } = await api
        .GET('/api/v1/orgs/{orgId}/members', { params: { path: { orgId } }, signal })
        .then(unwrap)
      return members.map((m) => ({ ...m, joinedAt: new Date(m.joinedAt) }))
    },
  })

/** Pending, unexpired invitations of `orgId` (owners and admins only). */
export const invitationsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...teamKey(orgId), 'invitations'] as const,
    queryFn: async ({ signal }): Promise<TeamInvitation[]> => {
      const { invitations } = await api
        .GET('/api/v1/orgs/{orgId}/invitations', { params: { path: { orgId } }, signal })
        .then(unwrap)
      return invitations.map((i) => ({ ...i, expiresAt: new Date(i.expiresAt) }))
    },
  })

/** The team changes, each for organisation `orgId`. */
export const teamActions = (orgId: string) => {
  const path = { orgId }
  return {
    invite: (email: string, role: TeamRole) =>
      api
        .POST('/api/v1/orgs/{orgId}/invitations', { params: { path }, body: { email, role } })
        .then(unwrap),
    resend: (invitation: TeamInvitation) =>
      api
        .POST('/api/v1/orgs/{orgId}/invitations/{invitationId}/resend', {
          params: { path: { ...path, invitationId: invitation.id } },
        })
        .then(unwrap),
    cancel: (invitationId: string) =>
      api
        .DELETE('/api/v1/orgs/{orgId}/invitations/{invitationId}', {
          params: { path: { ...path, invitationId } },
        })
        .then(unwrap),
    changeRole: (memberId: string, role: TeamRole) =>
      api
        .PATCH('/api/v1/orgs/{orgId}/members/{memberId}', {
          params: { path: { ...path, memberId } },
          body: { role },
        })
        .then(unwrap),
    remove: (memberId: string) =>
      api
        .DELETE('/api/v1/orgs/{orgId}/members/{memberId}', {
          params: { path: { ...path, memberId } },
        })
        .then(unwrap),
    leave: () => api.POST('/api/v1/orgs/{orgId}/leave', { params: { path } }).then(unwrap),
  }
}

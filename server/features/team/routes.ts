/**
 * HTTP routes of the team (issue 22, decision 0050): the member list for every member; pending
 * invitations, inviting, resending, cancelling, role changes and removals for owners and admins;
 * leaving for anyone. Each is one better-auth organization call with the caller's session
 * (service.ts), so these routes are in the authorisation and audit walks while better-auth keeps
 * the rules. Team routes act as the signed-in person, so each declares `sessionOnly` and the
 * route guard refuses an API key or token with `session_required` (route-roles.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { fromNodeHeaders } from 'better-auth/node'
import { INVITATIONS_PER_WINDOW } from '../../auth/auth'
import { principalOf } from '../../auth/principal'
import { rateLimitKey } from '../../auth/api-rate-limits'
import { OrgParams } from '../../http/params'
import { enforceRateLimit } from '../../http/rate-limited'
import {
  InvitationParams,
  InvitationSchema,
  MemberParams,
  MemberSchema,
  NewInvitation,
  RoleChange,
} from './schemas'
import {
  cancelInvitation,
  changeMemberRole,
  inviteMember,
  leaveOrganisation,
  listPendingInvitations,
  listTeamMembers,
  removeMember,
  resendInvitation,
  type TeamCaller,
} from './service'
import type { FeatureContext } from '../../services'

/** The window of INVITATIONS_PER_WINDOW: 15 minutes (decision 0045). */
const INVITATION_WINDOW_MS = 15 * 60_000

/** The caller of a team route: its organisation and its better-auth session headers. */
function callerOf(req: FastifyRequest): TeamCaller {
  const principal = principalOf(req)
  return { orgId: principal.orgId, headers: fromNodeHeaders(req.headers) }
}

export const teamRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { credentials: { auth, principals } },
) => {
  // Invitations and resends share one budget per person: each mails a link to an address the
  // sender picks, which the per-address sign-in limit never sees (decision 0045).
  const invitations = app.createRateLimit({
    max: INVITATIONS_PER_WINDOW,
    timeWindow: INVITATION_WINDOW_MS,
    keyGenerator: (req) => `invitations:${rateLimitKey(req)}`,
  })
  const invitationBudget = (req: FastifyRequest) =>
    enforceRateLimit(
      invitations,
      req,
      (seconds) => `Too many invitations: try again in ${seconds} seconds.`,
    )
  const membershipChanged = async () => principals.revokeAll()

  app.get(
    '/orgs/:orgId/members',
    {
      schema: {
        operationId: 'listMembers',
        tags: ['team'],
        description: 'The organisation’s members with their roles, oldest first.',
        params: OrgParams,
        response: { 200: z.object({ members: z.array(MemberSchema) }) },
      },
      config: { minRole: 'member', sessionOnly: true },
    },
    async (req) => ({ members: await listTeamMembers(auth, callerOf(req)) }),
  )

  app.get(
    '/orgs/:orgId/invitations',
    {
      schema: {
        operationId: 'listInvitations',
        tags: ['team'],
        description:
          'Pending, unexpired invitations, and the unsent ones an organisation import made (`sent` false), soonest to expire first (they hold e-mail addresses: owners and admins only; an admin does not see invitations to the owner role).',
        params: OrgParams,
        response: { 200: z.object({ invitations: z.array(InvitationSchema) }) },
      },
      config: { minRole: 'admin', sessionOnly: true },
    },
    async (req) => ({ invitations: await listPendingInvitations(auth, callerOf(req)) }),
  )

  app.post(
    '/orgs/:orgId/invitations',
    {
      schema: {
        operationId: 'inviteMember',
        tags: ['team'],
        description: `Invites an address with a role: a sign-in link back to the invitation is mailed to it (at most ${INVITATIONS_PER_WINDOW} invitations and resends per person per 15 minutes). An admin cannot invite an owner.`,
        params: OrgParams,
        body: NewInvitation,
        response: { 201: InvitationSchema },
      },
      config: { minRole: 'admin', sessionOnly: true },
      preHandler: invitationBudget,
    },
    async (req, reply) => reply.status(201).send(await inviteMember(auth, callerOf(req), req.body)),
  )

  app.post(
    '/orgs/:orgId/invitations/:invitationId/resend',
    {
      schema: {
        operationId: 'resendInvitation',
        tags: ['team'],
        description:
          'Mails a pending invitation again, with a fresh link and expiry; an unsent one (`sent` false, made by an organisation import) is sent for the first time and answered as the new invitation it becomes.',
        params: InvitationParams,
        response: { 200: InvitationSchema },
      },
      config: { minRole: 'admin', scope: 'write', sessionOnly: true },
      preHandler: invitationBudget,
    },
    (req) => resendInvitation(auth, callerOf(req), req.params.invitationId),
  )

  app.delete(
    '/orgs/:orgId/invitations/:invitationId',
    {
      schema: {
        operationId: 'cancelInvitation',
        tags: ['team'],
        description: 'Cancels a pending or unsent invitation: its link then joins nothing.',
        params: InvitationParams,
        response: { 204: z.null().describe('Cancelled') },
      },
      config: { minRole: 'admin', sessionOnly: true },
    },
    async (req, reply) => {
      await cancelInvitation(auth, callerOf(req), req.params.invitationId)
      return reply.status(204).send(null)
    },
  )

  app.patch(
    '/orgs/:orgId/members/:memberId',
    {
      schema: {
        operationId: 'changeMemberRole',
        tags: ['team'],
        description:
          'Changes a member’s role. Only an owner makes someone owner; the last owner cannot be demoted.',
        params: MemberParams,
        body: RoleChange,
        response: { 204: z.null().describe('Changed') },
      },
      config: { minRole: 'admin', sessionOnly: true },
    },
    async (req, reply) => {
      await changeMemberRole(auth, callerOf(req), req.params.memberId, req.body.role)
      await membershipChanged()
      return reply.status(204).send(null)
    },
  )

  app.delete(
    '/orgs/:orgId/members/:memberId',
    {
      schema: {
        operationId: 'removeMember',
        tags: ['team'],
        description:
          'Removes a member from the organisation. An admin cannot remove an owner; the last owner cannot be removed.',
        params: MemberParams,
        response: { 204: z.null().describe('Removed') },
      },
      config: { minRole: 'admin', sessionOnly: true },
    },
    async (req, reply) => {
      await removeMember(auth, callerOf(req), req.params.memberId)
      await membershipChanged()
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/orgs/:orgId/leave',
    {
      schema: {
        operationId: 'leaveOrganization',
        tags: ['team'],
        description: 'The caller leaves the organisation (the last owner cannot).',
        params: OrgParams,
        response: { 204: z.null().describe('Left') },
      },
      config: { minRole: 'member', scope: 'write', sessionOnly: true },
    },
    async (req, reply) => {
      await leaveOrganisation(auth, callerOf(req))
      await membershipChanged()
      return reply.status(204).send(null)
    },
  )
}

/** Schemas of the team routes (issue 22): members, pending invitations and their changes. */
import { z } from 'zod'
import { ROLES } from '../../db/roles'
import { MAX_EMAIL_LENGTH } from '../../auth/auth-routes'
import { OrgParams } from '../../http/params'

/**
 * A better-auth id (32 alphanumerics; tests and older rows hold UUIDs). Never an e-mail address:
 * better-auth's remove-member takes either, and the route names a member by id only.
 */
const AuthId = z
  .string()
  .regex(/^[\w-]{1,100}$/, { message: 'An id holds letters, digits, dashes and underscores' })

export const MemberParams = OrgParams.extend({ memberId: AuthId })
export const InvitationParams = OrgParams.extend({ invitationId: AuthId })

export const TeamRoleSchema = z.enum(ROLES).describe('member < admin < owner')

export const MemberSchema = z
  .object({
    id: z.string().describe('The membership’s id (not the user’s)'),
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    role: TeamRoleSchema,
    joinedAt: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'Member' })

export const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: TeamRoleSchema,
    expiresAt: z.string().describe('ISO 8601'),
    sent: z
      .boolean()
      .describe(
        'False for an invitation an organisation import made from its archive and nobody has sent: it cannot be accepted until an owner or admin sends it (resendInvitation)',
      ),
  })
  .meta({ id: 'Invitation' })

export const NewInvitation = z.object({
  email: z.email().max(MAX_EMAIL_LENGTH).describe('The address the sign-in link is mailed to'),
  role: TeamRoleSchema,
})

export const RoleChange = z.object({ role: TeamRoleSchema })

/**
 * The e-mail of an invitation (issue 22): a sign-in link whose callback is the invitation's page
 * (`/invitations/:id`), where the signed-in invitee joins with the invited role. better-auth's
 * `sendInvitationEmail` asks the magicLink plugin for that link with `metadata.invitationId`;
 * the plugin hands the link to `sendMagicLink`, which writes this mail instead of the plain
 * sign-in one. A client may pass the same metadata when asking for a link: the mail reads as an
 * invitation only for a pending invitation to that very address, so nobody can send another
 * person an invitation text.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { invitation, organization, user } from '../db/schema'
import type { Mail } from '../mail/mailer'

/** The page of invitation `id` on the web app (path only). */
export const invitationPath = (id: string) => `/invitations/${encodeURIComponent(id)}`

/**
 * The invitation mail for `email` carrying sign-in link `url`, or null when `invitationId` names
 * no pending invitation to `email`. `linkMinutes` is the sign-in link's lifetime; `publicUrl` the
 * app's origin, to name the page where an expired link is replaced.
 */
export async function invitationMail(
  db: Db,
  invitationId: unknown,
  email: string,
  url: string,
  { linkMinutes, publicUrl }: { linkMinutes: number; publicUrl: string },
): Promise<Mail | null> {
  if (typeof invitationId !== 'string') return null
  const [row] = await db
    .select({
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
      orgName: organization.name,
      inviter: user.name,
    })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .innerJoin(user, eq(user.id, invitation.inviterId))
    .where(and(eq(invitation.id, invitationId), eq(invitation.status, 'pending')))
  if (!row || row.email.toLowerCase() !== email.toLowerCase()) return null
  const page = new URL(invitationPath(invitationId), publicUrl).toString()
  const inviter = row.inviter.trim() === '' ? 'A colleague' : row.inviter
  return {
    to: email,
    subject: `Join ${row.orgName} on Lexdesk`,
    text:
      `${inviter} invited you to join ${row.orgName} on Lexdesk as ${row.role ?? 'member'}.\n\n` +
      `Sign in and join: ${url}\n\n` +
      `The sign-in link works once and expires in ${linkMinutes} minutes. After that, open ${page} ` +
      `and ask for a new link with this address. The invitation expires on ${row.expiresAt.toUTCString()}.`,
    link: url,
  }
}

/**
 * better-auth instance: passwordless e-mail links (magicLink plugin) and organisations with roles
 * owner / admin / member (organization plugin; the creator is owner), stored through the Drizzle
 * adapter. Link tokens are stored hashed, are single use (better-auth consumes them atomically)
 * and expire after `MAGIC_LINK_TTL_SECONDS`. Sign-in routes get strict per-e-mail and per-client
 * limits in `auth-routes.ts`; better-auth's own limiter covers the rest. Team changes (invitations,
 * roles, removals, leaving) go through the organization plugin, which holds the rules (only owners
 * and admins invite and manage, an admin never grants owner, the last owner stays), called by the
 * `/api/v1` team routes (server/features/team, decision 0050; its HTTP endpoints for them are
 * off); `membership-audit.ts` records each one, and an invitation is mailed as a sign-in link back
 * to its page (`invitation-mail.ts`, decision 0045).
 */
import type { FastifyBaseLogger } from 'fastify'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { magicLink, organization } from 'better-auth/plugins'
import { APIError } from 'better-auth/api'
import { eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/client'
import * as schema from '../db/schema'
import type { Mailer } from '../mail/mailer'
import { withTenant } from '../db/tenant'
import { AppError } from '../errors/app-error'
import { LEGAL_HOLD_DETAIL } from '../holds/legal-hold'
import { recordAudit } from '../audit/record-audit'
import { withoutParams } from '../http/logger'
import { toSingleLineText } from '../http/single-line-text'
import { hashLinkToken } from './hash-link-token'
import { organisationRules } from './organisation-rules'
import { assertOrganisationAllowance } from './organisation-limit'
import { membershipAudit } from './membership-audit'
import { invitationMail, invitationPath } from './invitation-mail'
import { ssoMembership, ssoPlugin, type MemberAdder } from './sso'
import { registerSsoSecretKey } from '../db/sso-secrets'

/** Header through which the Fastify bridge tells better-auth the client's address. */
export const CLIENT_IP_HEADER = 'x-lexdesk-client-ip'

/**
 * better-auth endpoints switched off for HTTP (relative to /api/auth; `auth.api` still calls
 * them). `check-slug` told anyone whether a firm's slug exists; the web app never asks (it adds a
 * random suffix to new slugs). The team's endpoints are served as `/api/v1` routes that call them
 * (server/features/team, decision 0050), inside the authorisation and audit walks: a second door
 * beside those would skip their role checks, invitation budget and cache revocation.
 */
export const DISABLED_AUTH_PATHS = [
  '/organization/check-slug',
  '/organization/invite-member',
  '/organization/cancel-invitation',
  '/organization/update-member-role',
  '/organization/remove-member',
  '/organization/leave',
  '/organization/list-members',
  '/organization/list-invitations',
  // SSO providers are managed through /api/v1/orgs/{orgId}/sso-providers (server/features/sso):
  // role and scope checks, audit, and the attested domain verification live there.
  '/sso/register',
  '/sso/providers',
  '/sso/get-provider',
  '/sso/update-provider',
  '/sso/delete-provider',
  '/sso/request-domain-verification',
  '/sso/verify-domain',
]

/** Lifetime of a sign-in link: 10 minutes (the issue asks for at most 15). */
export const MAGIC_LINK_TTL_SECONDS = 10 * 60

/**
 * Invitations (new or resent) one person may send per 15 minutes (server/features/team): each
 * mails a sign-in link to an address the sender chooses, which the per-address sign-in limit
 * (auth-routes.ts) never sees.
 */
export const INVITATIONS_PER_WINDOW = 30

/** Lifetime of an invitation: 7 days (its sign-in links are renewed on its page, decision 0045). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60

/**
 * Cleans an organisation's name (control and bidi characters removed, see single-line-text.ts).
 * Throws better-auth's APIError 400 when nothing is left.
 */
function cleanOrganisation(data: { name?: string }): { name?: string } {
  if (data.name === undefined) return {}
  const name = toSingleLineText(data.name)
  if (name === '') throw new APIError('BAD_REQUEST', { message: 'Give the organization a name.' })
  return { name }
}

/** A user's name with control and bidi characters removed (single-line-text.ts); may be ''. */
function cleanUserName(data: { name?: string | null }): { name?: string } {
  return typeof data.name === 'string' ? { name: toSingleLineText(data.name) } : {}
}

export interface AuthOptions {
  db: Db
  mailer: Mailer
  secret: string
  /** Origin of the app (PUBLIC_URL); links point here and it is the only trusted origin. */
  publicUrl: string
  /** The application log; better-auth's messages go there, errors through its err serializer. */
  log: FastifyBaseLogger
  /** Removes what an organisation kept outside the database (its files) once it is deleted. */
  onOrganizationDeleted?: (orgId: string) => Promise<void>
  /** Organisations one person may own (MAX_ORGANIZATIONS_PER_USER, organisation-limit.ts). */
  maxOrganizationsPerUser: number
  /** Identity providers' origins (SSO_IDP_ORIGINS): trusted, and the only ones SSO may fetch. */
  ssoIdpOrigins?: string[]
}

/** Creates the better-auth instance. */
export function createAuth({
  db,
  mailer,
  secret,
  publicUrl,
  log,
  onOrganizationDeleted,
  maxOrganizationsPerUser,
  ssoIdpOrigins = [],
}: AuthOptions) {
  // SSO providers' secrets are sealed at rest with a key derived from this secret (sso-secrets.ts).
  registerSsoSecretKey(secret)
  // ssoMembership adds members through this instance's organization plugin, set once it exists.
  const joins: { adder?: MemberAdder } = {}
  const auth = betterAuth({
    appName: 'Lexdesk',
    baseURL: publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [publicUrl, ...ssoIdpOrigins],
    telemetry: { enabled: false },
    // Unexpected errors are thrown to Fastify's error handler (a 500 problem, logged through the
    // err serializer) instead of better-call printing them, bound parameters and all, to stderr.
    onAPIError: { throw: true },
    // Its warnings go into the app's log, never the console.
    logger: {
      level: 'debug',
      log: (level, message, ...args) => {
        const err = args.find((arg): arg is Error => arg instanceof Error)
        log[level]({ err }, `better-auth: ${withoutParams(message)}`)
      },
    },
    disabledPaths: DISABLED_AUTH_PATHS,
    hooks: { before: organisationRules, after: membershipAudit(db) },
    // auth-routes.ts sets this header from the socket address, replacing any client-sent value.
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] } },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        organization: schema.organization,
        member: schema.member,
        invitation: schema.invitation,
        ssoProvider: schema.ssoProvider,
      },
    }),
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // A person's name is shown to colleagues like a title: cleaned the same way (issue 29), on
    // every path that writes it (the first sign-in's `name`, update-user).
    databaseHooks: {
      user: {
        create: { before: async (data) => ({ data: { ...data, ...cleanUserName(data) } }) },
        update: { before: async (data) => ({ data: { ...data, ...cleanUserName(data) } }) },
      },
    },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 600,
      // The sign-in routes have stricter, per-e-mail and per-client limits in auth-routes.ts.
      customRules: {
        '/sign-in/magic-link': false,
        '/magic-link/verify': false,
        '/sign-in/sso': false,
      },
    },
    plugins: [
      magicLink({
        expiresIn: MAGIC_LINK_TTL_SECONDS,
        storeToken: { type: 'custom-hasher', hash: async (token) => hashLinkToken(token) },
        sendMagicLink: async ({ email, url, metadata }) => {
          const invited = await invitationMail(db, metadata?.invitationId, email, url, {
            linkMinutes: MAGIC_LINK_TTL_SECONDS / 60,
            publicUrl,
          })
          if (invited) return mailer.send(invited)
          await mailer.send({
            to: email,
            subject: 'Your Lexdesk sign-in link',
            text: `Sign in to Lexdesk: ${url}\n\nThe link works once and expires in ${MAGIC_LINK_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this e-mail.`,
            link: url,
          })
        },
      }),
      organization({
        allowUserToCreateOrganization: true,
        creatorRole: 'owner',
        invitationExpiresIn: INVITATION_TTL_SECONDS,
        // An invitation id is no secret (it is in the invitee's links and the audit log), so
        // using one takes a verified address (every magic-link sign-in verifies it).
        requireEmailVerificationOnInvitation: true,
        // The invitation is a sign-in link back to its page, where the invitee joins
        // (invitation-mail.ts); the mail itself is written by sendMagicLink above.
        sendInvitationEmail: async ({ id, email }) => {
          await auth.api.signInMagicLink({
            body: { email, callbackURL: invitationPath(id), metadata: { invitationId: id } },
            headers: new Headers(),
          })
        },
        organizationHooks: {
          // The limit of organisations a person owns (organisation-limit.ts): asked before the
          // organisation is written, and again once its owner row is, so that creations sent at
          // once cannot all pass the first count; the one found past the limit is deleted again.
          // Its AppError, thrown through better-auth (onAPIError.throw), is the 403 problem.
          beforeCreateOrganization: async ({ organization: org, user }) => {
            await db.transaction((tx) =>
              assertOrganisationAllowance(tx, user.id, maxOrganizationsPerUser),
            )
            return { data: { ...org, ...cleanOrganisation(org) } }
          },
          beforeUpdateOrganization: async ({ organization: org }) => ({
            data: { ...org, ...cleanOrganisation(org) },
          }),
          // Every change is auditable, including the organisation's creation by its owner.
          afterCreateOrganization: async ({ organization: org, user }) => {
            try {
              await db.transaction((tx) =>
                assertOrganisationAllowance(tx, user.id, maxOrganizationsPerUser, org.id),
              )
            } catch (error) {
              // Nothing but its owner row was written yet; both go (ON DELETE CASCADE).
              await db.delete(schema.organization).where(eq(schema.organization.id, org.id))
              throw error
            }
            const principal = {
              orgId: org.id,
              userId: user.id,
              role: 'owner',
              actorType: 'user',
            } as const
            await withTenant(db, principal, (tx) =>
              recordAudit(
                tx,
                principal,
                'organization.create',
                { type: 'organization', id: org.id },
                { name: org.name },
              ),
            )
          },
          // better-auth deletes the members and invitations before the organisation, outside a
          // transaction: a hold standing in it (which the database's legal_hold_guard would
          // refuse only at the organisation's row) must stop it before anything goes.
          beforeDeleteOrganization: async ({ organization: org, user }) => {
            const principal = {
              orgId: org.id,
              userId: user.id,
              role: 'owner',
              actorType: 'user',
            } as const
            const [standing] = await withTenant(db, principal, (tx) =>
              tx
                .select({ id: schema.legalHolds.id })
                .from(schema.legalHolds)
                .where(isNull(schema.legalHolds.releasedAt))
                .limit(1),
            )
            if (standing) throw new AppError('legal_hold', LEGAL_HOLD_DETAIL)
          },
          // Its rows go by cascade; its files must go too (issue 5, hole 3).
          afterDeleteOrganization: async ({ organization: org }) => {
            await onOrganizationDeleted?.(org.id)
          },
        },
      }),
      ssoPlugin(),
      ssoMembership(db, () => {
        if (!joins.adder) throw new Error('SSO sign-in before the auth instance exists')
        return joins.adder
      }),
    ],
  })
  joins.adder = {
    addMember: async ({ body }) => {
      const added = await auth.api.addMember({ body })
      return added ? { id: added.id } : null
    },
  }
  return auth
}

export type Auth = ReturnType<typeof createAuth>

/**
 * Single sign-on (issue 45, decision 0152): `@better-auth/sso` for OIDC and SAML 2.0 providers
 * bound to an organisation, and what Lexdesk adds around it.
 * - Domain verification is on: a provider signs nobody in until its domain is verified, by a DNS
 *   TXT record or an owner's attestation (server/features/sso).
 * - Just-in-time membership: the plugin's own provisioning is off, and `ssoMembership` (a
 *   better-auth plugin of after-hooks on the sign-in callbacks) adds the person signing in
 *   through an organisation's provider to that organisation with the provider's default role,
 *   through the organization plugin's addMember (its hooks and limits), and audits the join.
 * - Require SSO: `ssoRequiredFor` names the verified provider that requires SSO for an
 *   address's domain; e-mail links for it are then refused (auth-routes.ts, 403 `sso_required`).
 */
import { sso } from '@better-auth/sso'
import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { member, ssoProvider } from '../db/schema'
import { withTenant } from '../db/tenant'
import { recordAudit } from '../audit/record-audit'
import { recordEvent } from '../events/record-event'
import { AppError } from '../errors/app-error'

/**
 * Prefix of a provider's DNS TXT record: `_lexdesk-sso-<providerId>.<domain>` holds
 * `_lexdesk-sso-<providerId>=<token>` (the plugin adds the underscore, RFC 8552).
 */
export const SSO_TOKEN_PREFIX = 'lexdesk-sso'

/** The refusal of an e-mail link for a domain that requires SSO. */
export const SSO_REQUIRED_DETAIL =
  'Your firm requires single sign-on for this address: choose “Sign in with your firm’s SSO” and use your firm’s account.'

/** Identity providers one organisation may register (a firm has one or two; a few to migrate). */
export const MAX_SSO_PROVIDERS_PER_ORG = 20

/** Paths of the plugin's sign-in answers (OIDC callback, SAML assertion consumer service). */
const CALLBACK_PATHS = ['/sso/callback/', '/sso/saml2/sp/acs/']

/** The plugin, configured as decision 0152 describes. */
export function ssoPlugin() {
  return sso({
    domainVerification: { enabled: true, tokenPrefix: SSO_TOKEN_PREFIX },
    // Membership is ssoMembership's (audited, through addMember).
    organizationProvisioning: { disabled: true },
    // Providers are registered through /api/v1 only, limited per organisation there
    // (MAX_SSO_PROVIDERS_PER_ORG); the plugin's own limit counts per registering person.
    providersLimit: 1000,
  })
}

/** The lower-cased domain of an e-mail address, or undefined. */
export function emailDomain(email: string): string | undefined {
  const at = email.trim().toLowerCase().lastIndexOf('@')
  const domain =
    at < 0
      ? ''
      : email
          .trim()
          .toLowerCase()
          .slice(at + 1)
  return domain === '' ? undefined : domain
}

/** The domains of a provider's `domain` column (one, or several comma-separated), lower-cased. */
export const providerDomains = (domain: string) =>
  domain
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '')

/** Whether `domain` is `listed` or one of its subdomains (as the plugin matches them). */
const coveredBy = (domain: string, listed: string) =>
  domain === listed || domain.endsWith(`.${listed}`)

/**
 * The verified provider requiring SSO for `email`'s domain (or a parent domain), or undefined.
 * Reads the global `sso_provider` table (no tenant: asked before anyone is signed in).
 */
export async function ssoRequiredFor(
  db: Db,
  email: string,
): Promise<{ providerId: string; organizationId: string | null } | undefined> {
  const domain = emailDomain(email)
  if (!domain) return undefined
  const rows = await db
    .select({
      providerId: ssoProvider.providerId,
      organizationId: ssoProvider.organizationId,
      domain: ssoProvider.domain,
    })
    .from(ssoProvider)
    .where(and(eq(ssoProvider.requireSso, true), eq(ssoProvider.domainVerified, true)))
  return rows.find((row) => providerDomains(row.domain).some((d) => coveredBy(domain, d)))
}

/** Throws 403 `sso_required` when `email`'s domain requires SSO. */
export async function refuseWhenSsoRequired(db: Db, email: string): Promise<void> {
  if (await ssoRequiredFor(db, email)) throw new AppError('sso_required', SSO_REQUIRED_DETAIL)
}

/** What ssoMembership needs of the auth instance: the organization plugin's addMember. */
export interface MemberAdder {
  addMember(input: {
    body: { userId: string; role: 'member' | 'admin'; organizationId: string }
  }): Promise<{ id: string } | null>
}

/**
 * A better-auth plugin of after-hooks: once an SSO callback has made a session, its user joins
 * the provider's organisation with the provider's default role if not a member yet, and the join
 * is audited (`member.join`, meta `via: 'sso'`) with its event (`member.joined`).
 * `adder` is read when a sign-in happens (the auth instance is built after its plugins).
 */
export function ssoMembership(db: Db, adder: () => MemberAdder): BetterAuthPlugin {
  return {
    id: 'lexdesk-sso-membership',
    hooks: {
      after: [
        {
          matcher: (ctx) => CALLBACK_PATHS.some((path) => ctx.path?.startsWith(path) ?? false),
          handler: createAuthMiddleware(async (ctx) => {
            const session = ctx.context.newSession
            const providerId = (ctx.params as { providerId?: string } | undefined)?.providerId
            if (!session?.user || !providerId) return
            const [provider] = await db
              .select({
                organizationId: ssoProvider.organizationId,
                defaultRole: ssoProvider.defaultRole,
              })
              .from(ssoProvider)
              .where(eq(ssoProvider.providerId, providerId))
            const orgId = provider?.organizationId
            if (!provider || !orgId) return
            const [existing] = await db
              .select({ id: member.id })
              .from(member)
              .where(and(eq(member.organizationId, orgId), eq(member.userId, session.user.id)))
            if (existing) return
            const role = provider.defaultRole === 'admin' ? 'admin' : 'member'
            const added = await adder().addMember({
              body: { userId: session.user.id, role, organizationId: orgId },
            })
            if (!added) return
            const principal = {
              orgId,
              userId: session.user.id,
              role,
              actorType: 'user',
            } as const
            await withTenant(db, principal, async (tx) => {
              const meta = { memberId: added.id, userId: session.user.id, role }
              await recordAudit(
                tx,
                principal,
                'member.join',
                { type: 'member', id: added.id },
                {
                  ...meta,
                  via: 'sso',
                  providerId,
                },
              )
              await recordEvent(tx, principal, 'member.joined', meta)
            })
          }),
        },
      ],
    },
  }
}

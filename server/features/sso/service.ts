/**
 * An organisation's single sign-on providers (issue 45, decision 0152): register, list, change
 * and delete them, verify their domains (a DNS TXT record, or an owner's attestation for an
 * install that cannot reach DNS), and require SSO for their domains. Registration, changes,
 * deletion and the verification token go through `@better-auth/sso` (`auth.api.*` with the
 * caller's session headers, so the plugin's own checks run: discovery of the issuer on an
 * allowed origin, the caller an owner or admin of the organisation); Lexdesk's settings (default
 * role, require SSO, how the domain was verified) are columns the plugin does not read, written
 * here. Every change is audited (`sso_provider.*`). A provider of another organisation is a 404.
 */
import { randomBytes } from 'node:crypto'
import { resolveTxt as dnsResolveTxt } from 'node:dns/promises'
import { and, asc, eq, sql } from 'drizzle-orm'
import { isAPIError } from 'better-auth/api'
import type { Auth } from '../../auth/auth'
import { MAX_SSO_PROVIDERS_PER_ORG, providerDomains, SSO_TOKEN_PREFIX } from '../../auth/sso'
import type { Db } from '../../db/client'
import { ssoProvider, type SsoDomainVerification } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { recordAudit } from '../../audit/record-audit'
import { AppError } from '../../errors/app-error'
import { codeForStatus } from '../../errors/error-codes'

/** DNS TXT lookup: the records of a name, each as its strings (node:dns `resolveTxt`). */
export type ResolveTxt = (name: string) => Promise<string[][]>

/** Who acts: the principal (for the audit row) and its better-auth session headers. */
export interface SsoCaller {
  principal: Principal
  headers: Headers
}

/** A provider as the routes answer it (SsoProviderSchema). */
export interface SsoProviderView {
  providerId: string
  type: 'oidc' | 'saml'
  issuer: string
  domains: string[]
  domainVerified: boolean
  verifiedVia: SsoDomainVerification | null
  verifiedAt: string | null
  requireSso: boolean
  defaultRole: 'member' | 'admin'
  clientId: string | null
  /** Where the identity provider sends people back (register it there). */
  redirectUri: string
  /** The DNS TXT record proving the domain, while it is unverified and a token is pending. */
  dnsRecord: { name: string; value: string } | null
}

type Row = typeof ssoProvider.$inferSelect

/** The verification identifier the plugin keeps a provider's token under (its record's name). */
const recordLabel = (providerId: string) => `_${SSO_TOKEN_PREFIX}-${providerId}`

function clientIdOf(row: Row): string | null {
  if (!row.oidcConfig) return null
  try {
    const config = JSON.parse(row.oidcConfig) as { clientId?: unknown }
    return typeof config.clientId === 'string' ? config.clientId : null
  } catch {
    return null
  }
}

async function toView(auth: Auth, publicUrl: string, row: Row): Promise<SsoProviderView> {
  let dnsRecord: SsoProviderView['dnsRecord'] = null
  if (!row.domainVerified) {
    const context = await auth.$context
    const pending = await context.internalAdapter.findVerificationValue(recordLabel(row.providerId))
    if (pending && new Date(pending.expiresAt) > new Date()) {
      const domain = providerDomains(row.domain)[0] ?? row.domain
      dnsRecord = {
        name: `${recordLabel(row.providerId)}.${domain}`,
        value: `${recordLabel(row.providerId)}=${pending.value}`,
      }
    }
  }
  const type = row.samlConfig ? 'saml' : 'oidc'
  return {
    providerId: row.providerId,
    type,
    issuer: row.issuer,
    domains: providerDomains(row.domain),
    domainVerified: row.domainVerified,
    verifiedVia: row.domainVerifiedVia ?? null,
    verifiedAt: row.domainVerifiedAt?.toISOString() ?? null,
    requireSso: row.requireSso,
    defaultRole: row.defaultRole === 'admin' ? 'admin' : 'member',
    clientId: clientIdOf(row),
    redirectUri:
      type === 'saml'
        ? `${publicUrl}/api/auth/sso/saml2/sp/acs/${row.providerId}`
        : `${publicUrl}/api/auth/sso/callback/${row.providerId}`,
    dnsRecord,
  }
}

/** The organisation's provider `providerId`, or 404 `sso_provider_not_found`. */
async function providerOf(db: Db, orgId: string, providerId: string): Promise<Row> {
  const [row] = await db
    .select()
    .from(ssoProvider)
    .where(and(eq(ssoProvider.organizationId, orgId), eq(ssoProvider.providerId, providerId)))
  if (!row) throw new AppError('sso_provider_not_found', 'SSO provider not found')
  return row
}

/** Records one audit row of a change to provider `providerId`, as the caller. */
const audit = (
  db: Db,
  principal: Principal,
  action: string,
  providerId: string,
  meta: Record<string, unknown> = {},
) =>
  withTenant(db, principal, (tx) =>
    recordAudit(tx, principal, action, { type: 'sso_provider', id: providerId }, meta),
  )

/**
 * Awaits a call of the plugin; its refusal (an APIError below 500: discovery failed, an origin
 * not allowed, a provider changed meanwhile) becomes an AppError with the plugin's message (written
 * for people) and the code of its status; its 502 (the identity provider did not answer) a 422.
 * Anything else is rethrown (a 500).
 */
async function fromPlugin<T>(call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (error) {
    if (!isAPIError(error)) throw error
    if (error.statusCode === 502) {
      throw new AppError('unprocessable', error.message || 'The identity provider did not answer')
    }
    if (error.statusCode >= 500) throw error
    if (error.statusCode === 404) {
      throw new AppError('sso_provider_not_found', 'SSO provider not found')
    }
    throw new AppError(codeForStatus(error.statusCode), error.message || 'Refused')
  }
}

export interface SsoDeps {
  auth: Auth
  db: Db
  publicUrl: string
}

/** The organisation's providers, oldest first. */
export async function listSsoProviders({ auth, db, publicUrl }: SsoDeps, orgId: string) {
  const rows = await db
    .select()
    .from(ssoProvider)
    .where(eq(ssoProvider.organizationId, orgId))
    .orderBy(asc(ssoProvider.createdAt), asc(ssoProvider.providerId))
  return Promise.all(rows.map((row) => toView(auth, publicUrl, row)))
}

/** A new OIDC provider's fields (NewSsoProvider). */
export interface NewOidcProvider {
  issuer: string
  /** Explicit endpoints (no discovery); each must be on a public or allowed origin. */
  endpoints?: { authorization: string; token: string; jwks: string; userInfo?: string }
  clientId: string
  clientSecret: string
  domains: string[]
  defaultRole: 'member' | 'admin'
}

/**
 * Registers an OIDC provider for the caller's organisation (the plugin discovers its endpoints
 * from `<issuer>/.well-known/openid-configuration` unless `endpoints` are given, which must be
 * on an allowed origin too, 400 otherwise; PKCE on), with a
 * fresh provider id; its
 * domain starts unverified with a DNS token pending. At most MAX_SSO_PROVIDERS_PER_ORG per
 * organisation (409 `conflict`). Audited `sso_provider.create`.
 */
export async function createSsoProvider(
  deps: SsoDeps,
  caller: SsoCaller,
  input: NewOidcProvider,
): Promise<SsoProviderView> {
  const [{ count } = { count: 0 }] = await deps.db
    .select({ count: sql<number>`count(*)::int` })
    .from(ssoProvider)
    .where(eq(ssoProvider.organizationId, caller.principal.orgId))
  if (count >= MAX_SSO_PROVIDERS_PER_ORG) {
    throw new AppError(
      'conflict',
      `An organisation has at most ${MAX_SSO_PROVIDERS_PER_ORG} SSO providers: delete one first.`,
    )
  }
  if (input.endpoints) {
    // The plugin admits explicit endpoints on any public origin; Lexdesk only on allowed ones
    // (SSO_IDP_ORIGINS, as discovery is), so no registration makes the server fetch elsewhere.
    const context = await deps.auth.$context
    const outside = Object.values(input.endpoints).find(
      (url) => url !== undefined && !context.isTrustedOrigin(url),
    )
    if (outside !== undefined) {
      throw new AppError(
        'validation_failed',
        `${new URL(outside).origin} is not an identity provider origin this server allows (SSO_IDP_ORIGINS).`,
      )
    }
  }
  const providerId = `sso-${randomBytes(9)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`
  await fromPlugin(
    deps.auth.api.registerSSOProvider({
      body: {
        providerId,
        issuer: input.issuer,
        domain: input.domains.join(','),
        organizationId: caller.principal.orgId,
        oidcConfig: {
          clientId: input.clientId,
          clientSecret: input.clientSecret,
          pkce: true,
          scopes: ['openid', 'email', 'profile'],
          ...(input.endpoints && {
            skipDiscovery: true,
            authorizationEndpoint: input.endpoints.authorization,
            tokenEndpoint: input.endpoints.token,
            jwksEndpoint: input.endpoints.jwks,
            userInfoEndpoint: input.endpoints.userInfo,
          }),
        },
      },
      headers: caller.headers,
    }),
  )
  await deps.db
    .update(ssoProvider)
    .set({ defaultRole: input.defaultRole })
    .where(eq(ssoProvider.providerId, providerId))
  await audit(deps.db, caller.principal, 'sso_provider.create', providerId, {
    issuer: input.issuer,
    domains: input.domains,
    defaultRole: input.defaultRole,
  })
  return toView(
    deps.auth,
    deps.publicUrl,
    await providerOf(deps.db, caller.principal.orgId, providerId),
  )
}

/** A change of a provider (SsoProviderChange); absent fields stay. */
export interface SsoProviderChange {
  clientId?: string
  clientSecret?: string
  domains?: string[]
  defaultRole?: 'member' | 'admin'
}

/**
 * Changes a provider: its client, its domains (a change of domains unverifies them, and stops
 * requiring SSO until they are verified again) and its default role. Audited
 * `sso_provider.update` (never the secret, only that it changed).
 */
export async function updateSsoProvider(
  deps: SsoDeps,
  caller: SsoCaller,
  providerId: string,
  change: SsoProviderChange,
): Promise<SsoProviderView> {
  const row = await providerOf(deps.db, caller.principal.orgId, providerId)
  const domain = change.domains?.join(',')
  const domainChanged = domain !== undefined && domain !== row.domain
  if (change.clientId !== undefined || change.clientSecret !== undefined || domainChanged) {
    await fromPlugin(
      deps.auth.api.updateSSOProvider({
        body: {
          providerId,
          ...(domainChanged && { domain }),
          ...((change.clientId !== undefined || change.clientSecret !== undefined) && {
            oidcConfig: {
              ...(change.clientId !== undefined && { clientId: change.clientId }),
              ...(change.clientSecret !== undefined && { clientSecret: change.clientSecret }),
            },
          }),
        },
        headers: caller.headers,
      }),
    )
  }
  await deps.db
    .update(ssoProvider)
    .set({
      ...(change.defaultRole !== undefined && { defaultRole: change.defaultRole }),
      ...(domainChanged && {
        domainVerified: false,
        domainVerifiedVia: null,
        domainVerifiedBy: null,
        domainVerifiedAt: null,
        requireSso: false,
      }),
    })
    .where(eq(ssoProvider.providerId, providerId))
  await audit(deps.db, caller.principal, 'sso_provider.update', providerId, {
    ...(change.clientId !== undefined && { clientId: change.clientId }),
    ...(change.clientSecret !== undefined && { clientSecretChanged: true }),
    ...(domainChanged && { domains: change.domains }),
    ...(change.defaultRole !== undefined && { defaultRole: change.defaultRole }),
  })
  return toView(
    deps.auth,
    deps.publicUrl,
    await providerOf(deps.db, caller.principal.orgId, providerId),
  )
}

/** Deletes a provider (the plugin removes its linked accounts). Audited `sso_provider.delete`. */
export async function deleteSsoProvider(deps: SsoDeps, caller: SsoCaller, providerId: string) {
  const row = await providerOf(deps.db, caller.principal.orgId, providerId)
  await fromPlugin(
    deps.auth.api.deleteSSOProvider({ body: { providerId }, headers: caller.headers }),
  )
  await audit(deps.db, caller.principal, 'sso_provider.delete', providerId, {
    issuer: row.issuer,
    domains: providerDomains(row.domain),
  })
}

/**
 * Verifies a provider's domains. `dns`: each domain must publish the pending token as a TXT
 * record at `_lexdesk-sso-<providerId>.<domain>` (a token is made, and the record to publish
 * answered, when none is pending); a missing record is 422 `domain_not_verified`. `attested`
 * (an owner only, 403 otherwise): the owner declares the firm controls the domains, for installs
 * that cannot reach DNS. Audited `sso_provider.verify_domain` with the method.
 */
export async function verifySsoDomain(
  deps: SsoDeps & { resolveTxt?: ResolveTxt },
  caller: SsoCaller,
  providerId: string,
  method: SsoDomainVerification,
): Promise<SsoProviderView> {
  const row = await providerOf(deps.db, caller.principal.orgId, providerId)
  if (row.domainVerified) {
    throw new AppError('conflict', 'This provider’s domain is already verified.')
  }
  if (method === 'attested' && caller.principal.role !== 'owner') {
    throw new AppError('forbidden', 'Only an owner can attest that the firm controls a domain.')
  }
  const label = recordLabel(providerId)
  if (method === 'dns') {
    const context = await deps.auth.$context
    let pending = await context.internalAdapter.findVerificationValue(label)
    if (!pending || new Date(pending.expiresAt) <= new Date()) {
      await fromPlugin(
        deps.auth.api.requestDomainVerification({ body: { providerId }, headers: caller.headers }),
      )
      pending = await context.internalAdapter.findVerificationValue(label)
    }
    const expected = `${label}=${pending?.value ?? ''}`
    const resolve = deps.resolveTxt ?? dnsResolveTxt
    for (const domain of providerDomains(row.domain)) {
      const records = await resolve(`${label}.${domain}`).catch(() => [] as string[][])
      const found = records.some((parts) => parts.join('').trim() === expected)
      if (!found) {
        throw new AppError(
          'domain_not_verified',
          `No TXT record ${label}.${domain} with the value ${expected} was found. Publish it and try again, or ask an owner to attest the domain.`,
        )
      }
    }
    await context.internalAdapter.deleteVerificationByIdentifier(label).catch(() => {})
  }
  await deps.db
    .update(ssoProvider)
    .set({
      domainVerified: true,
      domainVerifiedVia: method,
      domainVerifiedBy: caller.principal.userId,
      domainVerifiedAt: new Date(),
    })
    .where(eq(ssoProvider.providerId, providerId))
  await audit(deps.db, caller.principal, 'sso_provider.verify_domain', providerId, {
    method,
    domains: providerDomains(row.domain),
  })
  return toView(
    deps.auth,
    deps.publicUrl,
    await providerOf(deps.db, caller.principal.orgId, providerId),
  )
}

/**
 * Turns "require SSO" on or off for a provider's domains: on, e-mail links for those domains are
 * refused (auth-routes.ts). Only once the domain is verified (422 `domain_not_verified`).
 * Audited `sso_provider.require_sso`.
 */
export async function setRequireSso(
  deps: SsoDeps,
  caller: SsoCaller,
  providerId: string,
  required: boolean,
): Promise<SsoProviderView> {
  const row = await providerOf(deps.db, caller.principal.orgId, providerId)
  if (required && !row.domainVerified) {
    throw new AppError(
      'domain_not_verified',
      'Verify the provider’s domain before requiring single sign-on for it.',
    )
  }
  await deps.db
    .update(ssoProvider)
    .set({ requireSso: required })
    .where(eq(ssoProvider.providerId, providerId))
  await audit(deps.db, caller.principal, 'sso_provider.require_sso', providerId, {
    required,
    domains: providerDomains(row.domain),
  })
  return toView(deps.auth, deps.publicUrl, { ...row, requireSso: required })
}

/**
 * HTTP routes of single sign-on (issue 45, decision 0152), for an organisation's owners and
 * admins, signed in (`sessionOnly`: the plugin acts with the caller's session, and a credential
 * must never change how people sign in): list, register, change and delete the organisation's
 * identity providers, verify their domains (DNS, or an owner's attestation), and require SSO for
 * them. Each change is audited (service.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { fromNodeHeaders } from 'better-auth/node'
import { principalOf } from '../../auth/principal'
import { OrgParams } from '../../http/params'
import { SSO_DOMAIN_VERIFICATIONS } from '../../db/schema'
import type { FeatureContext } from '../../services'
import {
  createSsoProvider,
  deleteSsoProvider,
  listSsoProviders,
  setRequireSso,
  updateSsoProvider,
  verifySsoDomain,
  type SsoCaller,
} from './service'

/** A domain name as a firm's e-mail addresses end (letters, digits, dashes, dots; lower-cased). */
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    message: 'A domain such as yourfirm.com',
  })

const Domains = z.array(Domain).min(1).max(10)
const DefaultRole = z.enum(['member', 'admin']).describe('Role of a member joining by SSO')

export const SsoProviderSchema = z
  .object({
    providerId: z.string(),
    type: z.enum(['oidc', 'saml']),
    issuer: z.string(),
    domains: z.array(z.string()),
    domainVerified: z
      .boolean()
      .describe('Nobody signs in through the provider until its domain is verified'),
    verifiedVia: z.enum(SSO_DOMAIN_VERIFICATIONS).nullable(),
    verifiedAt: z.string().nullable().describe('ISO 8601'),
    requireSso: z.boolean().describe('E-mail sign-in links are refused for its domains'),
    defaultRole: DefaultRole,
    clientId: z.string().nullable(),
    redirectUri: z.string().describe('The sign-in callback to register at the identity provider'),
    dnsRecord: z
      .object({ name: z.string(), value: z.string() })
      .nullable()
      .describe('The TXT record that proves the domain, while a verification is pending'),
  })
  .meta({ id: 'SsoProvider' })

const EndpointUrl = z.url({ protocol: /^https?$/ }).max(2048)

const NewSsoProvider = z.object({
  type: z.literal('oidc').default('oidc'),
  issuer: EndpointUrl,
  endpoints: z
    .object({
      authorization: EndpointUrl,
      token: EndpointUrl,
      jwks: EndpointUrl,
      userInfo: EndpointUrl.optional(),
    })
    .optional()
    .describe(
      'The provider’s endpoints, for an issuer that publishes no discovery document; absent, they are discovered',
    ),
  clientId: z.string().trim().min(1).max(512),
  clientSecret: z.string().min(1).max(4096),
  domains: Domains,
  defaultRole: DefaultRole.default('member'),
})

const SsoProviderChange = z
  .object({
    clientId: z.string().trim().min(1).max(512),
    clientSecret: z.string().min(1).max(4096),
    domains: Domains,
    defaultRole: DefaultRole,
  })
  .partial()

const ProviderParams = OrgParams.extend({
  providerId: z.string().regex(/^[\w-]{1,100}$/, { message: 'Not a provider id' }),
})

/** The caller: its principal and its better-auth session headers. */
function callerOf(req: FastifyRequest): SsoCaller {
  return { principal: principalOf(req), headers: fromNodeHeaders(req.headers) }
}

const CONFIG = { minRole: 'admin', sessionOnly: true } as const

export const ssoRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db }, config, tuning, credentials: { auth } },
) => {
  const deps = { auth, db, publicUrl: config.publicUrl, resolveTxt: tuning.resolveTxt }

  app.get(
    '/orgs/:orgId/sso-providers',
    {
      schema: {
        operationId: 'listSsoProviders',
        tags: ['sso'],
        description: 'The organisation’s single sign-on providers, oldest first (never a secret).',
        params: OrgParams,
        response: { 200: z.object({ providers: z.array(SsoProviderSchema) }) },
      },
      config: CONFIG,
    },
    async (req) => ({ providers: await listSsoProviders(deps, req.params.orgId) }),
  )

  app.post(
    '/orgs/:orgId/sso-providers',
    {
      schema: {
        operationId: 'createSsoProvider',
        tags: ['sso'],
        description:
          'Registers an OpenID Connect provider: its endpoints are discovered from the issuer (which must be on an origin SSO_IDP_ORIGINS allows); the client secret is stored encrypted. Its domains start unverified, with the DNS record to publish.',
        params: OrgParams,
        body: NewSsoProvider,
        response: { 201: SsoProviderSchema },
      },
      config: CONFIG,
    },
    async (req, reply) =>
      reply.status(201).send(await createSsoProvider(deps, callerOf(req), req.body)),
  )

  app.patch(
    '/orgs/:orgId/sso-providers/:providerId',
    {
      schema: {
        operationId: 'updateSsoProvider',
        tags: ['sso'],
        description:
          'Changes a provider’s client, domains or default role. New domains are unverified again, and stop requiring SSO until verified.',
        params: ProviderParams,
        body: SsoProviderChange,
        response: { 200: SsoProviderSchema },
      },
      config: CONFIG,
    },
    (req) => updateSsoProvider(deps, callerOf(req), req.params.providerId, req.body),
  )

  app.delete(
    '/orgs/:orgId/sso-providers/:providerId',
    {
      schema: {
        operationId: 'deleteSsoProvider',
        tags: ['sso'],
        description: 'Deletes a provider: nobody signs in through it any more.',
        params: ProviderParams,
        response: { 204: z.null().describe('Deleted') },
      },
      config: CONFIG,
    },
    async (req, reply) => {
      await deleteSsoProvider(deps, callerOf(req), req.params.providerId)
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/orgs/:orgId/sso-providers/:providerId/verify-domain',
    {
      schema: {
        operationId: 'verifySsoDomain',
        tags: ['sso'],
        description:
          '`dns`: checks the TXT record of each domain (422 `domain_not_verified` when missing). `attested`: an owner declares the firm controls the domains, for installs without DNS (recorded in the audit log).',
        params: ProviderParams,
        body: z.object({ method: z.enum(SSO_DOMAIN_VERIFICATIONS) }),
        response: { 200: SsoProviderSchema },
      },
      config: CONFIG,
    },
    (req) => verifySsoDomain(deps, callerOf(req), req.params.providerId, req.body.method),
  )

  app.put(
    '/orgs/:orgId/sso-providers/:providerId/require-sso',
    {
      schema: {
        operationId: 'setRequireSso',
        tags: ['sso'],
        description:
          'Requires single sign-on for the provider’s domains (e-mail sign-in links are then refused for them, 403 `sso_required`), or stops requiring it. Only for a verified domain.',
        params: ProviderParams,
        body: z.object({ required: z.boolean() }),
        response: { 200: SsoProviderSchema },
      },
      config: CONFIG,
    },
    (req) => setRequireSso(deps, callerOf(req), req.params.providerId, req.body.required),
  )
}

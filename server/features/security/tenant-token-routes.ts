/**
 * Tenant tokens over HTTP (decision 0048): mint (`POST …/tokens`), list (`GET …/tokens`) and
 * revoke by jti (`DELETE …/tokens/:jti`), for admins. A token is shown once, in the mint answer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { DEFAULT_SCOPES, SCOPES, type Scope } from '../../auth/scopes'
import { AppId, OrgParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import {
  DEFAULT_TOKEN_TTL_SECONDS,
  listTenantTokens,
  MAX_TOKEN_TTL_SECONDS,
  mintTenantToken,
  revokeTenantToken,
} from './tenant-token-service'
import type { FeatureContext } from '../../services'

/**
 * `ttl_seconds`: a positive whole number of seconds up to MAX_TOKEN_TTL_SECONDS; absent, empty
 * or not a positive whole number → null, the default (DEFAULT_TOKEN_TTL_SECONDS, the issue's
 * rule, or less when the minting credential ends sooner: decision 0104); above the maximum → a
 * 400 problem rather than a silently shorter token.
 */
const TtlSeconds = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .describe(
    `Lifetime in seconds; empty or invalid → ${DEFAULT_TOKEN_TTL_SECONDS} (or the minting credential's remaining lifetime, if shorter); at most ${MAX_TOKEN_TTL_SECONDS}, and never past the minting credential's expiry`,
  )
  .transform((value, ctx): number | null => {
    const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds <= 0) {
      return null
    }
    if (seconds > MAX_TOKEN_TTL_SECONDS) {
      ctx.addIssue({
        code: 'custom',
        message: `ttl_seconds may be at most ${MAX_TOKEN_TTL_SECONDS} (24 hours)`,
      })
      return z.NEVER
    }
    return seconds
  })

/** `scope`: scopes separated by commas or spaces, blanks ignored; none → read and write. */
const TokenScope = z
  .string()
  .max(200)
  .optional()
  .describe(`Scopes separated by commas or spaces (${SCOPES.join(', ')}); default read,write`)
  .transform((value, ctx) => {
    const named = [...new Set((value ?? '').split(/[\s,]+/).filter(Boolean))]
    const unknown = named.filter((scope) => !(SCOPES as readonly string[]).includes(scope))
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown scope ${unknown.join(', ')}; scopes are ${SCOPES.join(', ')}`,
      })
      return z.NEVER
    }
    return named.length > 0 ? (named as Scope[]) : DEFAULT_SCOPES
  })

const MintTokenBody = z.object({
  app_id: AppId.nullish().describe(
    'The one app the token reaches; absent = the whole organisation',
  ),
  ttl_seconds: TtlSeconds,
  scope: TokenScope,
})

const TokenClaimsSchema = z
  .object({
    sub: z.string(),
    org_id: z.string(),
    app_id: z.string().nullable(),
    scope: z.string(),
    iat: z.number().int(),
    exp: z.number().int(),
    jti: z.string(),
  })
  .meta({ id: 'TenantTokenClaims' })

const MintedTokenSchema = z
  .object({
    token: z.string().describe('The token (ldt_ + JWT), shown this once; send as Bearer'),
    claims: TokenClaimsSchema,
  })
  .meta({ id: 'MintedTenantToken' })

const TokenInfoSchema = z
  .object({
    jti: z.string(),
    appId: z.string().nullable(),
    scope: z.string(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'TenantToken' })

const TokenParams = OrgParams.extend({
  jti: z.string().uuid({ message: 'A token id (jti) is a UUID' }),
})

export const tenantTokenRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db }, credentials: { tenantTokens: jwt, revoked } },
) => {
  /** Called with a token's jti once its revocation is committed (the verifier's cache). */
  const onRevoked = (jti: string) => revoked.tenantToken(jti)
  app.post(
    '/orgs/:orgId/tokens',
    {
      schema: {
        operationId: 'mintTenantToken',
        tags: ['security'],
        description:
          'Mint a tenant-scoped token (a signed JWT) for this organisation. Minted with an API key or token, it holds only scopes that credential has, ends no later than it and is revoked with it.',
        params: OrgParams,
        body: MintTokenBody,
        response: { 201: MintedTokenSchema },
      },
      config: { minRole: 'admin' },
    },
    async (req, reply) => {
      const { app_id, ttl_seconds, scope } = req.body
      const minted = await mintTenantToken({ db, jwt }, principalOf(req), {
        appId: app_id ?? null,
        ttlSeconds: ttl_seconds,
        scopes: scope,
      })
      return reply.status(201).send(minted)
    },
  )

  app.get(
    '/orgs/:orgId/tokens',
    {
      schema: {
        operationId: 'listTenantTokens',
        tags: ['security'],
        params: OrgParams,
        querystring: PageQuery,
        response: { 200: pageOf(TokenInfoSchema) },
      },
      config: { minRole: 'admin' },
    },
    (req) => listTenantTokens(db, principalOf(req), req.query),
  )

  app.delete(
    '/orgs/:orgId/tokens/:jti',
    {
      schema: {
        operationId: 'revokeTenantToken',
        tags: ['security'],
        description:
          'Revokes a token at once, and every key and token created with it; revoking it again keeps the first time.',
        params: TokenParams,
        response: { 204: z.null() },
      },
      config: { minRole: 'admin' },
    },
    async (req, reply) => {
      await revokeTenantToken(db, principalOf(req), req.params.jti, onRevoked)
      return reply.status(204).send(null)
    },
  )
}

/**
 * HTTP routes of API keys (issue 23, decision 0047), for admins and owners: list the
 * organisation's keys, create one (its secret is in that one answer only) and revoke one.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { DEFAULT_SCOPES, SCOPES } from '../../auth/scopes'
import { AppId, OrgParams } from '../../http/params'
import { toSingleLineText } from '../../http/single-line-text'
import { problemResponse } from '../../http/problem-responses'
import { createApiKey, listApiKeys, revokeApiKey } from './service'
import type { FeatureContext } from '../../services'

const ApiKeySchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key (`ldk_` and 6 more)'),
    scopes: z.array(z.string()),
    appId: z.string().uuid().nullable().describe('The one app it is bound to; null for all'),
    createdBy: z.string().describe('The user it acts for, capped at their role'),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().describe('Its last use, to the minute'),
    expiresAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' })

/**
 * Scopes as a person types them: comma-separated, each trimmed, blanks removed, repeats dropped;
 * absent or none left, DEFAULT_SCOPES (`read,write`), as for tenant tokens. Each must be one of
 * SCOPES.
 */
export const ScopeList = z
  .string()
  .max(200)
  .default('read,write')
  .transform((text) => {
    const named = [
      ...new Set(
        text
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean),
      ),
    ]
    return named.length > 0 ? named : [...DEFAULT_SCOPES]
  })
  .pipe(z.array(z.enum(SCOPES, { message: `Each scope must be one of ${SCOPES.join(', ')}` })))

const NewApiKeyBody = z.object({
  // Shown on the Security screen and in the activity feed: cleaned like any name a person reads.
  name: z
    .string()
    .max(100)
    .transform(toSingleLineText)
    .pipe(z.string().min(1, 'Give the key a name')),
  scopes: ScopeList.describe(`Comma-separated, of ${SCOPES.join(', ')}; default read,write`),
  expiresAt: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      'When it stops working (ISO 8601); absent: never, or when the creating API key or token expires',
    )
    .refine(
      (at) => at === undefined || Date.parse(at) > Date.now(),
      'Expiry must be in the future',
    ),
  appId: AppId.optional().describe('Bind the key to one app of the organisation'),
})

const ApiKeyParams = OrgParams.extend({
  keyId: z.string().uuid({ message: 'API key id must be a UUID' }),
})

export const apiKeyRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db }, credentials: { revoked } },
) => {
  app.get(
    '/orgs/:orgId/api-keys',
    {
      schema: {
        operationId: 'listApiKeys',
        tags: ['security'],
        description: 'The organisation’s API keys, newest first; never their secrets.',
        params: OrgParams,
        response: { 200: z.object({ items: z.array(ApiKeySchema) }) },
      },
      config: { minRole: 'admin' },
    },
    (req) => listApiKeys(db, principalOf(req)),
  )

  app.post(
    '/orgs/:orgId/api-keys',
    {
      schema: {
        operationId: 'createApiKey',
        tags: ['security'],
        description:
          'Creates an API key acting for the caller (capped at their role). The answer holds the secret `key`, shown this once only. Created with an API key or token, it holds only scopes that credential has, ends no later than it (by default, when it does) and is revoked with it.',
        params: OrgParams,
        body: NewApiKeyBody,
        response: {
          201: ApiKeySchema.extend({
            key: z.string().describe('The secret; send it as `Authorization: Bearer <key>`'),
          }).meta({ id: 'CreatedApiKey' }),
          404: problemResponse('The app is not one of the organisation’s'),
        },
      },
      config: { minRole: 'admin' },
    },
    async (req, reply) => {
      const { name, scopes, expiresAt, appId } = req.body
      const created = await createApiKey(db, principalOf(req), {
        name,
        scopes,
        expiresAt: expiresAt ? new Date(expiresAt) : null,
        appId: appId ?? null,
      })
      return reply.status(201).send(created)
    },
  )

  app.delete(
    '/orgs/:orgId/api-keys/:keyId',
    {
      schema: {
        operationId: 'revokeApiKey',
        tags: ['security'],
        description:
          'Revokes an API key at once, and every key and token created with it; revoking it again changes nothing.',
        params: ApiKeyParams,
        response: {
          204: z.null().describe('Revoked'),
          404: problemResponse('No such API key in the organisation'),
        },
      },
      config: { minRole: 'admin' },
    },
    async (req, reply) => {
      revoked.apiKey(await revokeApiKey(db, principalOf(req), req.params.keyId))
      return reply.status(204).send(null)
    },
  )
}

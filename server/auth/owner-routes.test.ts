/**
 * Owner routes never admit a credential (decision 0047): no route of the app is owner-only yet,
 * so the guard is tried on an API of its own, with a test credential that holds the owner role
 * and every scope; a member route beside it admits the same credential.
 */
import Fastify from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { afterAll, describe, expect, it } from 'vitest'
import { problemFor } from '../http/problem'
import { createTestCredentials } from '../test/test-credentials'
import { rateLimitPluginOptions } from './api-rate-limits'
import { createCredentialRegistry } from './credential-registry'
import { createPrincipalCache } from './principal-cache'
import { declareRouteRoles } from './route-roles'
import { SCOPES } from './scopes'

const credentials = createTestCredentials()
const app = Fastify()
app.setValidatorCompiler(validatorCompiler)
app.setSerializerCompiler(serializerCompiler)
app.setErrorHandler((error, _req, reply) => {
  const { problem, headers } = problemFor(error, {})
  return reply.status(problem.status).headers(headers).send(problem)
})
await app.register(rateLimit, rateLimitPluginOptions())
await app.register(
  async (api) => {
    declareRouteRoles(api, {
      // The header path never reaches better-auth nor the member table.
      auth: {} as never,
      db: {} as never,
      principals: createPrincipalCache(),
      credentials: createCredentialRegistry([credentials.verifier]),
      rateLimits: { readsPerMinute: 100, writesPerMinute: 100, keyRequestsPerMinute: 100 },
    })
    api.post('/orgs/:orgId/hand-over', { config: { minRole: 'owner' } }, () => ({ ok: true }))
    api.post('/orgs/:orgId/notes', { config: { minRole: 'member' } }, () => ({ ok: true }))
  },
  { prefix: '/api/v1' },
)
await app.ready()
afterAll(() => app.close())

describe('owner routes and credentials', () => {
  it('refuses an owner route to a credential of the owner role with every scope', async () => {
    const { authorization } = credentials.issue({ orgId: 'org-1', role: 'owner', scopes: SCOPES })
    const headers = { authorization }
    const owner = await app.inject({ method: 'POST', url: '/api/v1/orgs/org-1/hand-over', headers })
    expect(owner.statusCode).toBe(403)
    expect(owner.json()).toMatchObject({ code: 'forbidden' })
    const member = await app.inject({ method: 'POST', url: '/api/v1/orgs/org-1/notes', headers })
    expect(member.statusCode).toBe(200)
  })
})

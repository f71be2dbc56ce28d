/**
 * Rate limits of the tenant API: each principal's budgets of reads and writes (at their real
 * defaults here), and a route's own `config.rateLimit`, both answering the one 429 problem.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { afterAll, describe, expect, it } from 'vitest'
import { problemFor } from '../http/problem'
import { buildTestApp, signedInMember, signedInWithRole } from '../test/test-app'
import { createTestCredentials } from '../test/test-credentials'
import { DEFAULT_API_RATE_LIMITS } from '../config'
import { rateLimitKey, rateLimitPluginOptions } from './api-rate-limits'
import { createCredentialRegistry } from './credential-registry'
import { declareRouteRoles } from './route-roles'

function expectRateLimited(res: {
  statusCode: number
  headers: Record<string, unknown>
  json: () => unknown
}) {
  expect(res.statusCode).toBe(429)
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(res.json()).toMatchObject({ status: 429, code: 'rate_limited' })
  const retryAfter = Number(res.headers['retry-after'])
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
}

describe('the per-principal budgets, at their defaults', async () => {
  const t = await buildTestApp({ apiRateLimits: DEFAULT_API_RATE_LIMITS })
  afterAll(() => t.close())
  const busy = await signedInMember(t, 'Busy Firm')
  const colleague = await signedInWithRole(t, busy.orgId, 'member')
  const entities = `/api/v1/orgs/${busy.orgId}/entities`

  it('answers the write past the limit with a 429 problem and Retry-After, and no one else', async () => {
    const { writesPerMinute } = DEFAULT_API_RATE_LIMITS
    // Malformed bodies: each write is counted before its body is validated (400).
    const writes = await Promise.all(
      Array.from({ length: writesPerMinute }, () =>
        t.app.inject({ method: 'POST', url: entities, headers: busy.headers, payload: {} }),
      ),
    )
    expect(writes.map((res) => res.statusCode)).toEqual(Array(writesPerMinute).fill(400))
    const over = await t.app.inject({
      method: 'POST',
      url: entities,
      headers: busy.headers,
      payload: { name: 'One too many' },
    })
    expectRateLimited(over)
    expect(over.json()).toMatchObject({ detail: expect.stringMatching(/try again in \d+ second/) })

    // The same user's reads draw on another budget; another user's writes on their own.
    expect((await t.app.inject({ url: entities, headers: busy.headers })).statusCode).toBe(200)
    const other = await t.app.inject({
      method: 'POST',
      url: entities,
      headers: colleague.headers,
      payload: { name: 'Unhurried client' },
    })
    expect(other.statusCode, other.body).toBe(201)
    const list = await t.app.inject({ url: entities, headers: colleague.headers })
    expect(list.body).not.toContain('One too many')
  })
})

describe("a route's own rate limit", () => {
  const credentials = createTestCredentials()

  /** An app whose one API route admits two requests a minute per principal. */
  async function cappedApp(): Promise<FastifyInstance> {
    const app = Fastify()
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
    app.setErrorHandler((error, _req, reply) => {
      const { problem, headers } = problemFor(error)
      return reply
        .status(problem.status)
        .headers(headers)
        .type('application/problem+json')
        .send(JSON.stringify(problem))
    })
    await app.register(rateLimit, rateLimitPluginOptions())
    await app.register(
      async (api) => {
        declareRouteRoles(api, {
          auth: {} as never,
          db: {} as never,
          principals: {} as never,
          credentials: createCredentialRegistry([credentials.verifier]),
          rateLimits: DEFAULT_API_RATE_LIMITS,
        })
        api.post(
          '/orgs/:orgId/reports',
          { config: { minRole: 'member', rateLimit: { max: 2, timeWindow: 60_000 } } },
          (req) => ({ by: req.principal?.credentialId }),
        )
      },
      { prefix: '/api/v1' },
    )
    return app
  }

  it('refuses the third request of one principal with the 429 problem, not the next principal', async () => {
    const app = await cappedApp()
    try {
      const url = '/api/v1/orgs/org-1/reports'
      const first = credentials.issue({ orgId: 'org-1' })
      const second = credentials.issue({ orgId: 'org-1' })
      const send = (authorization: string) =>
        app.inject({ method: 'POST', url, headers: { authorization } })
      expect((await send(first.authorization)).json()).toEqual({ by: first.credentialId })
      expect((await send(first.authorization)).statusCode).toBe(200)
      expectRateLimited(await send(first.authorization))
      expect((await send(second.authorization)).json()).toEqual({ by: second.credentialId })
      // A caller refused before the guard admits them is not counted against anyone.
      expect((await send('Bearer lxtest_unknown')).statusCode).toBe(401)
    } finally {
      await app.close()
    }
  })
})

describe('rateLimitKey', () => {
  const base = { orgId: 'o', role: 'member' as const, scopes: [], appId: null }

  it('keys a credential by its id, a session by its user, and an unknown caller by address', () => {
    const req = (principal?: object) => ({ ip: '192.0.2.7', principal }) as never
    expect(
      rateLimitKey(req({ ...base, userId: 'u', actorType: 'api_key' as const, credentialId: 'c' })),
    ).toBe('credential:c')
    expect(
      rateLimitKey(req({ ...base, userId: 'u', actorType: 'user' as const, credentialId: null })),
    ).toBe('user:u')
    expect(rateLimitKey(req())).toBe('ip:192.0.2.7')
  })
})

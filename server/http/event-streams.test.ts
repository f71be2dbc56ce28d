/** The event-stream gate in the HTTP server's request listener, before Fastify (decision 0078). */
import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { afterEach, describe, expect, it } from 'vitest'
import type { Principal } from '../db/tenant'
import { EventStreams } from './event-streams'
import { rawSecurityHeaders } from './security-headers'
import { wrappedServerFactory } from './wrapped-server-factory'

const PER_USER = 2
let app: FastifyInstance | undefined
const open: AbortController[] = []

afterEach(async () => {
  for (const controller of open.splice(0)) controller.abort()
  await app?.close()
  app = undefined
})

/**
 * A server whose one stream route is gated by EventStreams, and which counts every request that
 * reaches Fastify (an onRequest hook added before the gate's own).
 */
async function gatedServer() {
  const streams = new EventStreams(
    { perUser: PER_USER, perOrg: 100, keepAliveMs: 60_000 },
    (req) => `${req.headers.authorization ?? `ip:${req.ip}`}`,
    rawSecurityHeaders('http://localhost:3000'),
  )
  const reached: string[] = []
  const server = Fastify({
    serverFactory: wrappedServerFactory((handler) => streams.requestListener(handler)),
  })
  server.setValidatorCompiler(validatorCompiler)
  server.setSerializerCompiler(serializerCompiler)
  server.addHook('onRequest', async (req) => {
    reached.push(req.url)
    const principal: Principal = {
      orgId: 'org-1',
      userId: 'user-1',
      role: 'member',
      actorType: 'user',
    }
    Object.assign(req, { principal })
  })
  streams.register(server)
  server.get(
    '/orgs/:orgId/jobs/:jobId/events',
    { schema: { produces: ['text/event-stream'] } },
    (req, reply) => {
      streams.open(req, reply).send({ status: 'running' })
    },
  )
  server.get('/orgs/:orgId/jobs/:jobId', async () => ({ status: 'running' }))
  app = server
  const origin = await server.listen({ port: 0, host: '127.0.0.1' })
  return { origin, reached }
}

async function follow(url: string) {
  const controller = new AbortController()
  open.push(controller)
  const res = await fetch(url, {
    headers: { authorization: 'Bearer one' },
    signal: controller.signal,
  })
  return res
}

describe('the event-stream gate before Fastify', () => {
  it("answers a client's streams past its cap with the 429 problem without Fastify seeing them", async () => {
    const { origin, reached } = await gatedServer()
    const url = `${origin}/orgs/o/jobs/j/events?since=0`
    const admitted = await Promise.all(Array.from({ length: PER_USER }, () => follow(url)))
    expect(admitted.map((r) => r.status)).toEqual([200, 200])

    const refused = await Promise.all(Array.from({ length: 20 }, () => follow(url)))
    for (const res of refused) {
      expect(res.status).toBe(429)
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(res.headers.get('retry-after')).toBe('10')
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(await res.json()).toEqual({
        type: 'about:blank',
        title: 'Too Many Requests',
        status: 429,
        code: 'too_many_streams',
        detail: expect.stringContaining(`at most ${PER_USER} live updates per person`) as unknown,
        instance: '/orgs/o/jobs/j/events',
      })
    }
    // Only the admitted streams reached Fastify's hooks; the other routes still do, past the cap.
    expect(reached).toHaveLength(PER_USER)
    expect(
      (await fetch(`${origin}/orgs/o/jobs/j`, { headers: { authorization: 'Bearer one' } })).status,
    ).toBe(200)
    expect(reached).toHaveLength(PER_USER + 1)
  })

  it('lets the client stream again once one of its streams is closed', async () => {
    const { origin } = await gatedServer()
    const url = `${origin}/orgs/o/jobs/j/events`
    await Promise.all(Array.from({ length: PER_USER }, () => follow(url)))
    expect((await follow(url)).status).toBe(429)
    open[0]?.abort()
    await expect.poll(async () => (await follow(url)).status, { timeout: 5000 }).toBe(200)
  })
})

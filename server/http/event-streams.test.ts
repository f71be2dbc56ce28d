/** The event-stream gate in the HTTP server's request listener, before Fastify (decision 0078). */
import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import FindMyWay from 'find-my-way'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Principal } from '../db/tenant'
import { EventStreams } from './event-streams'
import { securityHeaderList } from './security-headers'
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
    securityHeaderList('http://localhost:3000'),
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
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
      // The refused client's connection is not kept for its next attempt.
      expect(res.headers.get('connection')).toBe('close')
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

  it('asks its router only about paths ending as a stream route does, escaped ones included', async () => {
    const { origin } = await gatedServer()
    type Router = ReturnType<typeof FindMyWay>
    const lookups = vi.spyOn(Object.getPrototypeOf(FindMyWay()) as Router, 'find')
    // The gate's router holds the stream route alone; Fastify's holds every route.
    const gateLookups = () =>
      (lookups.mock.contexts as Router[]).filter(
        (r) => !r.hasRoute('GET', '/orgs/:orgId/jobs/:jobId'),
      ).length
    try {
      const headers = { authorization: 'Bearer one' }
      expect((await fetch(`${origin}/orgs/o/jobs/j`, { headers })).status).toBe(200)
      expect(gateLookups()).toBe(0)
      const url = `${origin}/orgs/o/jobs/j/events`
      await Promise.all(Array.from({ length: PER_USER }, () => follow(url)))
      expect(gateLookups()).toBe(PER_USER)
      // The router decodes %73 as s: the escaped path is the stream route, and refused as one.
      expect((await follow(`${origin}/orgs/o/jobs/j/event%73`)).status).toBe(429)
    } finally {
      lookups.mockRestore()
    }
  })

  it('lets the client stream again once one of its streams is closed', async () => {
    const { origin } = await gatedServer()
    const url = `${origin}/orgs/o/jobs/j/events`
    await Promise.all(Array.from({ length: PER_USER }, () => follow(url)))
    expect((await follow(url)).status).toBe(429)
    open[0]?.abort()
    await expect.poll(async () => (await follow(url)).status, { timeout: 5000 }).toBe(200)
  })

  it('answers a request that arrives behind a burst of refused streams before the refusals', async () => {
    const streams = new EventStreams(
      { perUser: PER_USER, perOrg: 100, keepAliveMs: 60_000 },
      () => 'one client',
      securityHeaderList('http://localhost:3000'),
    )
    const server = Fastify()
    server.setValidatorCompiler(validatorCompiler)
    server.setSerializerCompiler(serializerCompiler)
    streams.register(server)
    server.get(
      '/orgs/:orgId/jobs/:jobId/events',
      { schema: { produces: ['text/event-stream'] } },
      () => {},
    )
    app = server
    await server.ready()

    // What each response got, in the order it got it; `next` stands for Fastify.
    const answered: { url: string; status: number; headers: string[]; body: string }[] = []
    const reached: string[] = []
    const listener = streams.requestListener((req, res) => {
      reached.push(req.url ?? '')
      if (req.url === '/readyz') res.writeHead(200, ['content-type', 'application/json']).end('{}')
    })
    /** A request as the HTTP server hands it over; its response records what is written. */
    const request = (url: string) => {
      const res = Object.assign(new EventEmitter(), {
        destroyed: false,
        writeHead(status: number, headers: string[] | Record<string, string>) {
          const list = Array.isArray(headers) ? headers : Object.entries(headers).flat()
          answered.push({ url, status, headers: list.map(String), body: '' })
          return res
        },
        end(body: string) {
          answered.at(-1)!.body = body
          return res
        },
      })
      const req = { method: 'GET', url, headers: {}, socket: { remoteAddress: '127.0.0.1' } }
      listener(req as unknown as IncomingMessage, res as unknown as ServerResponse)
    }

    // One turn of the event loop's reads: the client's admitted streams, 200 more, then /readyz.
    const streamUrl = '/orgs/o/jobs/j/events'
    for (let i = 0; i < PER_USER + 200; i += 1) request(streamUrl)
    request('/readyz')
    expect(reached).toEqual([...Array<string>(PER_USER).fill(streamUrl), '/readyz'])
    expect(answered.map((a) => a.url)).toEqual(['/readyz'])

    // The refusals follow, a few per turn, so other sockets' reads interleave with them.
    let turns = 0
    while (answered.length < 201) {
      await new Promise((resolve) => setImmediate(resolve))
      turns += 1
    }
    expect(turns).toBeGreaterThan(1)
    const refusals = answered.slice(1)
    expect(new Set(refusals.map((r) => r.status))).toEqual(new Set([429]))
    const headers = Object.fromEntries(
      refusals[0]!.headers.flatMap((h, i, all) => (i % 2 === 0 ? [[h, all[i + 1]]] : [])),
    ) as Record<string, string>
    expect(headers).toMatchObject({
      'content-type': 'application/problem+json; charset=utf-8',
      'retry-after': '10',
      'cache-control': 'no-store',
      connection: 'close',
      'x-content-type-options': 'nosniff',
      'content-length': String(Buffer.byteLength(refusals[0]!.body)),
    })
    expect(JSON.parse(refusals[0]!.body)).toMatchObject({
      code: 'too_many_streams',
      instance: streamUrl,
    })
    expect(reached).toHaveLength(PER_USER + 1)
  })
})

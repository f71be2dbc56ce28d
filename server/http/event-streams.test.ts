/**
 * Event streams (since decision 0125 only the assistant chat's answers): the gate in the HTTP
 * server's request listener, before Fastify (decision 0078), and the admission caps and
 * keep-alives of the streams it lets through.
 */
import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import Fastify, { type FastifyInstance } from 'fastify'
import FindMyWay from 'find-my-way'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Principal } from '../db/tenant'
import type { AppError } from '../errors/app-error'
import { EventStreams } from './event-streams'
import { securityHeaderList } from './security-headers'
import { wrappedServerFactory } from './wrapped-server-factory'
import { followEventStream, type FollowedStream } from '../test/follow-event-stream'

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

/**
 * Admission of streams past the gate (issue 29, point 5; moved here from the job streams' tests
 * when the chat's answer became the one event stream, decision 0125): capped per user and per
 * organisation, kept alive by one timer, freed when their client goes. The caller is named by
 * the request's `x-user` and `x-org` headers.
 */
describe('admitted streams', () => {
  const LIMITS = { perUser: 2, perOrg: 3, keepAliveMs: 100 }

  async function admittingServer() {
    const streams = new EventStreams(LIMITS, (req) => `${String(req.headers['x-user'])}`)
    const server = Fastify()
    server.setValidatorCompiler(validatorCompiler)
    server.setSerializerCompiler(serializerCompiler)
    server.addHook('onRequest', async (req) => {
      const principal: Principal = {
        orgId: String(req.headers['x-org']),
        userId: String(req.headers['x-user']),
        role: 'member',
        actorType: 'user',
      }
      Object.assign(req, { principal })
    })
    // As the app's error handler answers an AppError (its code, detail and headers).
    server.setErrorHandler((error: AppError, _req, reply) =>
      reply
        .code(error.status)
        .headers(error.headers)
        .send({ code: error.code, detail: error.detail }),
    )
    streams.register(server)
    server.post('/answer', { schema: { produces: ['text/event-stream'] } }, (req, reply) => {
      streams.open(req, reply).send({ status: 'answering' })
    })
    app = server
    const origin = await server.listen({ port: 0, host: '127.0.0.1' })
    const streamsOf = async (user: string, org: string, n = 1) => {
      const followed = await Promise.all(
        Array.from({ length: n }, () =>
          followEventStream(`${origin}/answer`, {
            method: 'POST',
            headers: { 'x-user': user, 'x-org': org },
          }),
        ),
      )
      opened.push(...followed)
      return followed
    }
    return { streamsOf }
  }

  const opened: FollowedStream[] = []
  afterEach(() => {
    vi.restoreAllMocks()
    for (const stream of opened.splice(0)) stream.close()
  })

  function expectTooMany(stream: FollowedStream, detail: RegExp) {
    expect(stream.status).toBe(429)
    expect(Number(stream.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(JSON.parse(stream.body)).toMatchObject({
      code: 'too_many_streams',
      detail: expect.stringMatching(detail) as unknown,
    })
  }

  it("refuses a person past the per-user cap, a colleague only past the organisation's, and never another organisation", async () => {
    const { streamsOf } = await admittingServer()
    for (const s of await streamsOf('alice', 'firm', 2)) expect(s.status).toBe(200)
    const [refused] = (await streamsOf('alice', 'firm')) as [FollowedStream]
    expectTooMany(refused, /at most 2 live updates per person/)
    const [colleague] = (await streamsOf('bob', 'firm')) as [FollowedStream]
    expect(colleague.status).toBe(200)
    const [pastOrg] = (await streamsOf('bob', 'firm')) as [FollowedStream]
    expectTooMany(pastOrg, /at most 3 live updates for all its members/)
    for (const s of await streamsOf('carol', 'neighbour', 2)) expect(s.status).toBe(200)
  })

  it('gives the place back when a stream is closed by its client', async () => {
    const { streamsOf } = await admittingServer()
    const held = await streamsOf('alice', 'firm', 2)
    expect((await streamsOf('alice', 'firm'))[0]!.status).toBe(429)
    held[0]!.close()
    await expect
      .poll(async () => (await streamsOf('alice', 'firm'))[0]!.status, { timeout: 5000 })
      .toBe(200)
  })

  it('keeps one keep-alive timer whatever the number of streams, sends its comments, and clears it once they close', async () => {
    const created = vi.spyOn(globalThis, 'setInterval')
    const cleared = vi.spyOn(globalThis, 'clearInterval')
    const { streamsOf } = await admittingServer()
    const streams = [...(await streamsOf('alice', 'firm', 2)), ...(await streamsOf('bob', 'firm'))]
    await expect
      .poll(() => streams[0]!.blocks.filter((b) => 'comment' in b).length, { timeout: 5000 })
      .toBeGreaterThan(1)
    expect(created.mock.calls.length).toBeLessThanOrEqual(1)
    for (const s of streams) s.close()
    const timers = created.mock.results.map((r) => r.value as unknown)
    await expect
      .poll(() => timers.every((id) => cleared.mock.calls.some(([c]) => c === id)), {
        timeout: 5000,
      })
      .toBe(true)
  })
})

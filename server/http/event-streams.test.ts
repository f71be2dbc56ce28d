/**
 * Event streams (since decision 0125 only the assistant chat's answers): the gate that counts a
 * client's stream requests before its principal is resolved (an onRequest hook since decision
 * 0135), and the admission caps and keep-alives of the streams it lets through.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Principal } from '../db/tenant'
import type { AppError } from '../errors/app-error'
import { EventStreams } from './event-streams'
import { followEventStream, type FollowedStream } from '../test/follow-event-stream'

const PER_USER = 2
let app: FastifyInstance | undefined
const open: AbortController[] = []

afterEach(async () => {
  for (const controller of open.splice(0)) controller.abort()
  await app?.close()
  app = undefined
})

/** As the app's error handler answers an AppError (its code, detail and headers). */
function answerAppErrors(server: FastifyInstance) {
  server.setErrorHandler((error: AppError, _req, reply) =>
    reply
      .code(error.status)
      .headers(error.headers)
      .send({ code: error.code, detail: error.detail }),
  )
}

/**
 * A server whose one stream route is gated by EventStreams, and which counts every request that
 * passes the gate: an onRequest hook added after it, where the app resolves the principal.
 */
async function gatedServer() {
  const streams = new EventStreams(
    { perUser: PER_USER, perOrg: 100, keepAliveMs: 60_000 },
    (req) => `${req.headers.authorization ?? `ip:${req.ip}`}`,
  )
  const reached: string[] = []
  const server = Fastify()
  server.setValidatorCompiler(validatorCompiler)
  server.setSerializerCompiler(serializerCompiler)
  answerAppErrors(server)
  streams.register(server)
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
  server.post(
    '/orgs/:orgId/chat',
    { schema: { produces: ['text/event-stream'] } },
    (req, reply) => {
      streams.open(req, reply).send({ status: 'answering' })
    },
  )
  server.get('/orgs/:orgId/conversations', async () => ({ items: [] }))
  app = server
  const origin = await server.listen({ port: 0, host: '127.0.0.1' })
  return { origin, reached }
}

async function follow(url: string) {
  const controller = new AbortController()
  open.push(controller)
  return fetch(url, {
    method: 'POST',
    headers: { authorization: 'Bearer one' },
    signal: controller.signal,
  })
}

describe('the event-stream gate', () => {
  it("refuses a client's streams past its cap with the 429 before its principal is looked up", async () => {
    const { origin, reached } = await gatedServer()
    const url = `${origin}/orgs/o/chat`
    const admitted = await Promise.all(Array.from({ length: PER_USER }, () => follow(url)))
    expect(admitted.map((r) => r.status)).toEqual([200, 200])

    const refused = await Promise.all(Array.from({ length: 5 }, () => follow(url)))
    for (const res of refused) {
      expect(res.status).toBe(429)
      expect(res.headers.get('retry-after')).toBe('10')
      expect(await res.json()).toEqual({
        code: 'too_many_streams',
        detail: expect.stringContaining(`at most ${PER_USER} live updates per person`) as unknown,
      })
    }
    // Only the admitted streams reached the hooks after the gate; other routes still do.
    expect(reached).toHaveLength(PER_USER)
    const other = await fetch(`${origin}/orgs/o/conversations`, {
      headers: { authorization: 'Bearer one' },
    })
    expect(other.status).toBe(200)
    expect(reached).toHaveLength(PER_USER + 1)
  })

  it('lets the client stream again once one of its streams is closed', async () => {
    const { origin } = await gatedServer()
    const url = `${origin}/orgs/o/chat`
    await Promise.all(Array.from({ length: PER_USER }, () => follow(url)))
    expect((await follow(url)).status).toBe(429)
    open[0]?.abort()
    await expect.poll(async () => (await follow(url)).status, { timeout: 5000 }).toBe(200)
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
    answerAppErrors(server)
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

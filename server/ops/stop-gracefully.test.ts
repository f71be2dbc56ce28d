/**
 * The graceful stop of SIGTERM (issue 28): /readyz turns 503 while the server still serves,
 * open realtime sockets (the live channel, decision 0125) close, the socket stops accepting, and
 * close() resolves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'
import { Lifecycle } from './lifecycle'
import { drainDelayMs, stopGracefully } from './stop-gracefully'

let t: TestApp
let origin: string
let alice: TestMember
const lifecycle = new Lifecycle()

beforeAll(async () => {
  t = await buildTestApp({ lifecycle })
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' })
  alice = await signedInMember(t, 'Stopping Firm')
  // injectWS sends Sec-WebSocket-Version as a number, which ws refuses (realtime.test.ts).
  t.app.server.prependListener('upgrade', (req: { headers: Record<string, unknown> }) => {
    const version = req.headers['sec-websocket-version']
    if (typeof version === 'number') req.headers['sec-websocket-version'] = String(version)
  })
})
afterAll(() => t.close())

describe('stopGracefully', () => {
  it('answers /readyz 503 while draining, still serves, closes realtime sockets, then stops accepting', async () => {
    const socket = await t.app.injectWS(`/api/v1/orgs/${alice.orgId}/realtime`, {
      headers: alice.headers,
    })
    let closed: number | null = null
    socket.on('close', (code: number) => (closed = code))
    expect((await fetch(`${origin}/readyz`)).status).toBe(200)

    lifecycle.drain(10_000)
    const ready = await fetch(`${origin}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ code: 'shutting_down' })
    // Draining is not refusing: the load balancer may still send a request or two.
    const listed = await fetch(`${origin}/api/v1/orgs/${alice.orgId}/documents`, {
      headers: alice.headers,
    })
    expect(listed.status).toBe(200)
    expect(closed).toBeNull()

    await stopGracefully(t.app, lifecycle, { timeoutMs: 10_000, drainMs: 0 })
    await expect.poll(() => closed).not.toBeNull()
    await expect(fetch(`${origin}/healthz`)).rejects.toThrow()
  })

  it('keeps serving a quarter of the budget, at most 5 s, before closing', () => {
    expect(drainDelayMs(8_000)).toBe(2_000)
    expect(drainDelayMs(30_000)).toBe(5_000)
  })
})

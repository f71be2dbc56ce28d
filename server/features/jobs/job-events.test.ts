/**
 * Job event streams under load (issue 29, point 5): capped per user and per organisation, woken
 * by the database's change announcements (no timer per stream, none for changes), kept alive, and freed
 * completely when their client goes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestApp,
  type TestMember,
} from '../../test/test-app'
import { followEventStream, type FollowedStream } from '../../test/follow-event-stream'
import { conversations, jobs } from '../../db/schema'

const PER_USER = 4
const PER_ORG = 6

let t: TestApp
let origin: string
const opened: FollowedStream[] = []

beforeAll(async () => {
  t = await buildTestApp({ streams: { perUser: PER_USER, perOrg: PER_ORG, keepAliveMs: 100 } })
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' })
})
afterEach(() => {
  vi.restoreAllMocks()
  for (const stream of opened.splice(0)) stream.close()
})
afterAll(() => t.close())

/**
 * A job that another server process is running: a row written straight into the database, as
 * that process's runner would, so this process's runner neither runs it nor notifies about it.
 */
async function jobRunElsewhere(m: TestMember): Promise<string> {
  const [row] = await t.database.db
    .insert(jobs)
    .values({
      orgId: m.orgId,
      kind: 'analysis',
      status: 'running',
      attempts: 1,
      lockedBy: 'another-server-process',
      heartbeatAt: new Date(),
      startedAt: new Date(),
      createdBy: m.userId,
    })
    .returning({ id: jobs.id })
  if (!row) throw new Error('no job inserted')
  return row.id
}

async function follow(m: TestMember, jobId: string): Promise<FollowedStream> {
  const stream = await followEventStream(`${origin}/api/v1/orgs/${m.orgId}/jobs/${jobId}/events`, {
    headers: m.headers,
  })
  opened.push(stream)
  return stream
}

/** Opens `n` streams on `jobId` as `m` and waits until each has sent the job's first state. */
async function followMany(m: TestMember, jobId: string, n: number): Promise<FollowedStream[]> {
  const streams = await Promise.all(Array.from({ length: n }, () => follow(m, jobId)))
  for (const s of streams) {
    expect(s.status, s.body).toBe(200)
    await expect.poll(() => s.data().length).toBeGreaterThan(0)
  }
  return streams
}

function expectTooMany(stream: FollowedStream, detail: RegExp) {
  expect(stream.status).toBe(429)
  expect(stream.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(Number(stream.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(JSON.parse(stream.body)).toMatchObject({
    status: 429,
    code: 'too_many_streams',
    detail: expect.stringMatching(detail) as unknown,
  })
}

describe('caps on open event streams', () => {
  it('refuses one stream over the per-user cap with a 429 problem and Retry-After', async () => {
    const alice = await signedInMember(t, 'Stream Cap Firm')
    const jobId = await jobRunElsewhere(alice)
    await followMany(alice, jobId, PER_USER)
    expectTooMany(await follow(alice, jobId), new RegExp(`at most ${PER_USER} live updates`))
  })

  it('refuses a credential holding its cap before looking its session up', async () => {
    const alice = await signedInMember(t, 'Stream Gate Firm')
    const streams = await followMany(alice, await jobRunElsewhere(alice), PER_USER)
    // Signing out deletes the session and empties the principal cache: a request that still
    // looked the session up would now be a 401.
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: alice.headers,
    })
    expect(signedOut.statusCode).toBe(200)
    const burst = await Promise.all(
      Array.from({ length: 3 * PER_USER }, async () => follow(alice, crypto.randomUUID())),
    )
    for (const refused of burst)
      expectTooMany(refused, new RegExp(`at most ${PER_USER} live updates`))
    for (const s of streams) s.close()
    // Once its streams are closed the credential is looked up again, and found signed out.
    await expect
      .poll(async () => (await follow(alice, crypto.randomUUID())).status, { timeout: 5000 })
      .toBe(401)
  })

  it('gives the place back when a stream is closed by its client', async () => {
    const alice = await signedInMember(t, 'Stream Release Firm')
    const jobId = await jobRunElsewhere(alice)
    const [first] = await followMany(alice, jobId, PER_USER)
    expect((await follow(alice, jobId)).status).toBe(429)
    first?.close()
    await expect.poll(async () => (await follow(alice, jobId)).status, { timeout: 5000 }).toBe(200)
  })

  it('gives the place back when the job ends and its stream with it', async () => {
    const alice = await signedInMember(t, 'Stream End Firm')
    const [running, ending] = [await jobRunElsewhere(alice), await jobRunElsewhere(alice)]
    await followMany(alice, running, PER_USER - 1)
    const last = (await followMany(alice, ending, 1))[0] as FollowedStream
    await t.database.db
      .update(jobs)
      .set({ status: 'succeeded', progress: 1, finishedAt: new Date(), updatedAt: new Date() })
      .where(eq(jobs.id, ending))
    await expect.poll(() => last.ended, { timeout: 5000 }).toBe(true)
    expect((await follow(alice, running)).status).toBe(200)
  })

  it("does not refuse a colleague for another's streams until the organisation's cap", async () => {
    const alice = await signedInMember(t, 'Stream Org Firm')
    const bob = await signedInWithRole(t, alice.orgId, 'member')
    const jobId = await jobRunElsewhere(alice)
    await followMany(alice, jobId, PER_USER)
    await followMany(bob, jobId, PER_ORG - PER_USER)
    expectTooMany(await follow(bob, jobId), new RegExp(`at most ${PER_ORG} live updates`))
  })

  it("does not refuse another organisation for one organisation's full cap", async () => {
    const alice = await signedInMember(t, 'Stream Full Firm')
    const bob = await signedInWithRole(t, alice.orgId, 'member')
    const jobId = await jobRunElsewhere(alice)
    await followMany(alice, jobId, PER_USER)
    await followMany(bob, jobId, PER_ORG - PER_USER)
    const carol = await signedInMember(t, 'Neighbour Firm')
    await followMany(carol, await jobRunElsewhere(carol), PER_USER)
  })

  it('counts the assistant chat stream too, refusing it before anything is stored', async () => {
    const alice = await signedInMember(t, 'Stream Chat Firm')
    await followMany(alice, await jobRunElsewhere(alice), PER_USER)
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/chat`,
      headers: alice.headers,
      payload: { messages: [{ role: 'user', content: 'What is the notice period?' }] },
    })
    expect(res.statusCode).toBe(429)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    const stored = await t.database.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.orgId, alice.orgId))
    expect(stored).toEqual([])
  })
})

describe('streams woken by changes', () => {
  it("delivers progress written by another process's runner, then ends with the job", async () => {
    const alice = await signedInMember(t, 'Stream Watch Firm')
    const jobId = await jobRunElsewhere(alice)
    const [stream] = (await followMany(alice, jobId, 1)) as [FollowedStream]
    await t.database.db.execute(
      sql`UPDATE jobs SET progress = 0.5, message = 'Halfway', updated_at = now() WHERE id = ${jobId}`,
    )
    await expect
      .poll(() => stream.data().at(-1), { timeout: 5000 })
      .toMatchObject({ id: jobId, progress: 0.5, message: 'Halfway' })
    await t.database.db.execute(
      sql`UPDATE jobs SET status = 'failed', error = 'Stopped', finished_at = now(), updated_at = now() WHERE id = ${jobId}`,
    )
    await expect.poll(() => stream.ended, { timeout: 5000 }).toBe(true)
    expect(stream.data().at(-1)).toMatchObject({ status: 'failed', error: 'Stopped' })
  })

  it('keeps no timer per stream, and clears every timer once the streams are closed', async () => {
    const alice = await signedInMember(t, 'Stream Timer Firm')
    const jobId = await jobRunElsewhere(alice)
    const created = vi.spyOn(globalThis, 'setInterval')
    const cleared = vi.spyOn(globalThis, 'clearInterval')
    const streams = await followMany(alice, jobId, PER_USER)
    // At most the one keep-alive timer, whatever the number of streams: changes are announced by
    // the database (the jobs table's trigger), not looked for.
    expect(created.mock.calls.length).toBeLessThanOrEqual(1)
    for (const s of streams) s.close()
    const timers = created.mock.results.map((r) => r.value as unknown)
    await expect
      .poll(() => timers.every((id) => cleared.mock.calls.some(([c]) => c === id)), {
        timeout: 5000,
      })
      .toBe(true)
  })

  it('sends keep-alive comments on an idle stream', async () => {
    const alice = await signedInMember(t, 'Stream Idle Firm')
    const [stream] = (await followMany(alice, await jobRunElsewhere(alice), 1)) as [FollowedStream]
    await expect
      .poll(() => stream.blocks.filter((b) => 'comment' in b).length, { timeout: 5000 })
      .toBeGreaterThan(1)
    expect(stream.ended).toBe(false)
  })
})

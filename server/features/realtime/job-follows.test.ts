/**
 * Jobs followed over the organisation's realtime socket (issue 42, decision 0125): the state on
 * follow, each committed change, the end; never another organisation's job, and never, to a
 * socket of an app-bound tenant token, a job of another app. Every message the hub sends here is
 * checked against the typed message map (the test app is not production).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { jobs } from '../../db/schema'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { appOf } from '../../test/app-of'
import { mintToken } from '../../test/mint-token'
import { MAX_FOLLOWS } from '../../realtime/realtime-hub'
import { checkServerMessage } from './realtime-server-message'

const t = await buildTestApp()
afterAll(() => t.close())
acceptInjectedUpgrades(t)

/** As in realtime.test.ts: injectWS sends Sec-WebSocket-Version as a number, which ws refuses. */
function acceptInjectedUpgrades(app: TestApp): void {
  app.app.server.prependListener('upgrade', (req: { headers: Record<string, unknown> }) => {
    const version = req.headers['sec-websocket-version']
    if (typeof version === 'number') req.headers['sec-websocket-version'] = String(version)
  })
}

type WebSocket = Awaited<ReturnType<typeof t.app.injectWS>>

interface Client {
  ws: WebSocket
  messages: Array<Record<string, unknown>>
}

async function open(
  m: TestMember,
  headers: Record<string, string> = m.headers,
  app: TestApp = t,
): Promise<Client> {
  const ws = await app.app.injectWS(`/api/v1/orgs/${m.orgId}/realtime`, { headers })
  const client: Client = { ws, messages: [] }
  ws.on('message', (data: Buffer) =>
    client.messages.push(JSON.parse(data.toString()) as Record<string, unknown>),
  )
  return client
}

/** The messages about job `jobId` that `client` received: its `job`s and `error`s. */
function about(client: Client, jobId: string) {
  return client.messages.filter(
    (m) => (m.type === 'job' && (m.job as { id: string }).id === jobId) || m.jobId === jobId,
  )
}

/**
 * A job of `m`'s organisation on `subjectId`, running in another server process (so this test
 * app's runner leaves it alone): its changes here are written to its row, as that process would.
 */
async function runningJob(
  m: TestMember,
  subjectId: string | null = null,
  { app = t, kind = 'analysis' }: { app?: TestApp; kind?: string } = {},
): Promise<string> {
  const [job] = await app.database.db
    .insert(jobs)
    .values({
      orgId: m.orgId,
      kind,
      status: 'running',
      attempts: 1,
      lockedBy: 'another-server-process',
      heartbeatAt: new Date(),
      startedAt: new Date(),
      createdBy: m.userId,
      subjectId,
    })
    .returning({ id: jobs.id })
  return job!.id
}

function setJob(id: string, values: Partial<typeof jobs.$inferInsert>) {
  return t.database.db.update(jobs).set(values).where(eq(jobs.id, id))
}

async function documentIn(m: TestMember, appId?: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/documents/text`,
    headers: m.headers,
    payload: { title: 'Engagement letter', content: 'The firm shall advise.', appId },
  })
  expect(res.statusCode, res.body).toBe(201)
  return (res.json() as { id: string }).id
}

describe('following a job over the realtime socket', () => {
  it('sends the job as it stands, then after each committed change, and nothing after its end', async () => {
    const a = await signedInMember(t, 'Follow Firm')
    const jobId = await runningJob(a)
    const socket = await open(a)
    socket.ws.send(JSON.stringify({ type: 'follow', jobId }))
    await expect.poll(() => about(socket, jobId)).toHaveLength(1)
    expect(about(socket, jobId)[0]).toMatchObject({
      type: 'job',
      job: { id: jobId, kind: 'analysis', status: 'running', progress: 0 },
    })

    await setJob(jobId, { progress: 0.5, message: 'Reading clauses' })
    await expect.poll(() => about(socket, jobId)).toHaveLength(2)
    expect(about(socket, jobId)[1]).toMatchObject({
      job: { status: 'running', progress: 0.5, message: 'Reading clauses' },
    })

    await setJob(jobId, { status: 'failed', error: 'The engine gave up.', finishedAt: new Date() })
    await expect.poll(() => about(socket, jobId)).toHaveLength(3)
    expect(about(socket, jobId)[2]).toMatchObject({
      job: { status: 'failed', error: 'The engine gave up.' },
    })
    // The final state ended the follow: a later write (a purge's, say) is not sent.
    await setJob(jobId, { message: 'after the end' })
    const marker = await runningJob(a)
    socket.ws.send(JSON.stringify({ type: 'follow', jobId: marker }))
    await expect.poll(() => about(socket, marker)).toHaveLength(1)
    expect(about(socket, jobId)).toHaveLength(3)
    for (const message of socket.messages) expect(() => checkServerMessage(message)).not.toThrow()
    socket.ws.terminate()
  })

  it('never sends a follower the same state of a job twice in a row', async () => {
    const a = await signedInMember(t, 'Follow Once Firm')
    const jobId = await runningJob(a)
    const socket = await open(a)
    socket.ws.send(JSON.stringify({ type: 'follow', jobId }))
    await expect.poll(() => about(socket, jobId)).toHaveLength(1)
    // A heartbeat changes the row and is announced, but not the job as the API shows it: the same
    // state read again, as when a change committed just before the follow is announced after it.
    await setJob(jobId, { heartbeatAt: new Date() })
    await setJob(jobId, { progress: 0 })
    await setJob(jobId, { progress: 0.25 })
    // One organisation's sends keep their order: any repeat would come before this change.
    await expect
      .poll(() => (about(socket, jobId).at(-1) as { job?: { progress: number } }).job?.progress)
      .toBe(0.25)
    expect(about(socket, jobId).map((m) => (m.job as { progress: number }).progress)).toEqual([
      0, 0.25,
    ])
    // A second follow of the same job is still answered with its state (the web app's second
    // follower of a job waits for that answer).
    socket.ws.send(JSON.stringify({ type: 'follow', jobId }))
    await expect.poll(() => about(socket, jobId)).toHaveLength(3)
    expect(about(socket, jobId)[2]).toMatchObject({ type: 'job', job: { progress: 0.25 } })
    socket.ws.terminate()
  })

  it("answers job_not_found for another organisation's job, and never sends its changes", async () => {
    const a = await signedInMember(t, 'Follow Owner Firm')
    const mallory = await signedInMember(t, 'Follow Mallory Firm')
    const jobId = await runningJob(a)
    const socket = await open(mallory)
    socket.ws.send(JSON.stringify({ type: 'follow', jobId }))
    await expect
      .poll(() => about(socket, jobId))
      .toEqual([expect.objectContaining({ type: 'error', code: 'job_not_found', jobId })])
    await setJob(jobId, { progress: 0.9 })
    const own = await runningJob(mallory)
    socket.ws.send(JSON.stringify({ type: 'follow', jobId: own }))
    await expect.poll(() => about(socket, own)).toHaveLength(1)
    expect(about(socket, jobId)).toHaveLength(1)
    socket.ws.terminate()
  })

  it("sends a socket of an app-bound tenant token its app's jobs only, never another app's", async () => {
    const a = await signedInMember(t, 'Follow Apps Firm')
    const [appA, appB] = [await appOf(t, a, 'follow-a'), await appOf(t, a, 'follow-b')]
    const ownJob = await runningJob(a, await documentIn(a, appA))
    const otherJob = await runningJob(a, await documentIn(a, appB))
    const firmJob = await runningJob(a, null)
    const { token } = await mintToken(t, a, { app_id: appA, scope: 'read', ttl_seconds: 600 })
    const bound = await open(a, { authorization: `Bearer ${token}` })
    const session = await open(a)
    for (const jobId of [ownJob, otherJob, firmJob]) {
      bound.ws.send(JSON.stringify({ type: 'follow', jobId }))
      session.ws.send(JSON.stringify({ type: 'follow', jobId }))
    }
    await expect.poll(() => about(bound, ownJob)).toHaveLength(1)
    expect(about(bound, ownJob)[0]).toMatchObject({ type: 'job', job: { id: ownJob } })
    for (const hidden of [otherJob, firmJob]) {
      await expect
        .poll(() => about(bound, hidden))
        .toEqual([expect.objectContaining({ type: 'error', code: 'job_not_found' })])
    }
    // The session (no app) sees every job of its organisation.
    for (const jobId of [ownJob, otherJob, firmJob]) {
      await expect.poll(() => about(session, jobId)[0]).toMatchObject({ type: 'job' })
    }

    await setJob(otherJob, { progress: 0.7, message: 'Secret step of app B' })
    await setJob(ownJob, { progress: 0.4 })
    await expect.poll(() => about(bound, ownJob)).toHaveLength(2)
    await expect.poll(() => about(session, otherJob)).toHaveLength(2)
    expect(JSON.stringify(bound.messages)).not.toContain('Secret step of app B')
    bound.ws.terminate()
    session.ws.terminate()
  })

  it('refuses to follow more than MAX_FOLLOWS jobs at once on one socket', async () => {
    const a = await signedInMember(t, 'Follow Many Firm')
    const socket = await open(a)
    // Unknown jobs end their follow at once (job_not_found): follow running ones instead.
    const running = await Promise.all(Array.from({ length: MAX_FOLLOWS + 1 }, () => runningJob(a)))
    for (const jobId of running) socket.ws.send(JSON.stringify({ type: 'follow', jobId }))
    const last = running.at(-1)!
    await expect
      .poll(() => about(socket, last))
      .toEqual([expect.objectContaining({ type: 'error', code: 'too_many_follows' })])
    socket.ws.terminate()
  })
})

describe('the message check, chosen by the parsed configuration', () => {
  it('drops a drifted message outside production, and checks nothing when the configuration says production, whatever NODE_ENV the process has', async () => {
    // Vitest runs with NODE_ENV=test; this app's configuration alone says production.
    const production = await buildTestApp({
      env: { NODE_ENV: 'production', MAIL_TRANSPORT: 'console' },
    })
    try {
      acceptInjectedUpgrades(production)
      for (const [app, checked] of [
        [t, true],
        [production, false],
      ] as const) {
        const m = await signedInMember(app, 'Check Firm')
        // A kind the Job union does not describe (a row left by a retired kind, say).
        const drifted = await runningJob(m, null, { app, kind: 'retired-kind' })
        const marker = await runningJob(m, null, { app })
        const socket = await open(m, m.headers, app)
        socket.ws.send(JSON.stringify({ type: 'follow', jobId: drifted }))
        socket.ws.send(JSON.stringify({ type: 'follow', jobId: marker }))
        // One organisation's sends keep their order: the drifted job's would come first.
        await expect.poll(() => about(socket, marker)).toHaveLength(1)
        expect(about(socket, drifted), checked ? 'checked' : 'unchecked').toHaveLength(
          checked ? 0 : 1,
        )
        socket.ws.terminate()
      }
    } finally {
      await production.close()
    }
  })
})

describe('the typed message map', () => {
  it('rejects a message the map does not describe, naming its type and not its values', () => {
    expect(() =>
      checkServerMessage({ type: 'change', table: 'public.session', op: 'insert' }),
    ).toThrow(/'change' message that is not a RealtimeServerMessage/)
    expect(() =>
      checkServerMessage({ type: 'job', job: { id: 'x', status: 'running', title: 'Secret' } }),
    ).toThrow(/^(?!.*Secret)/)
    expect(() =>
      checkServerMessage({ type: 'error', code: 'bad_message', detail: 'Send JSON' }),
    ).not.toThrow()
  })
})

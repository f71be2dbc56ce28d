import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { insertOrganizations, openTestDatabase } from '../test/test-database'
import type { Database } from '../db/client'
import { jobs } from '../db/schema'
import { withTenant, type Principal } from '../db/tenant'
import { AppError } from '../errors/app-error'
import { JobRunner, type JobHandler } from './job-runner'
import { cancelJob, enqueueJob, getJob } from './job-service'
import { INTERRUPTED_MESSAGE, purgeFinishedJobs } from './job-store'

let database: Database
const runners: JobRunner[] = []
const quietLog = { info: () => {}, warn: () => {}, error: () => {} }

beforeAll(async () => {
  database = await openTestDatabase()
})
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()))
})
afterAll(() => database.close())

/** A new organisation and an owner principal for it (no user row: created_by stays null). */
async function newOrg(): Promise<Principal> {
  const id = randomUUID()
  await insertOrganizations(database, id)
  return { orgId: id, userId: null, role: 'owner', actorType: 'system' }
}

function queue(
  principal: Principal,
  kind: string,
  input: unknown = {},
  maxAttempts = 3,
  background = false,
) {
  return withTenant(database.db, principal, (tx) =>
    enqueueJob(tx, principal, { kind, input, maxAttempts, background }),
  )
}

function runner(handlers: JobHandler[], concurrency = 1): JobRunner {
  const r = new JobRunner({ db: database.db, log: quietLog, concurrency, pollMs: 50 })
  for (const handler of handlers) r.register(handler)
  runners.push(r)
  return r
}

/** A promise with its resolve exposed: lets a test decide when a job's work ends. */
function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

const statusOf = async (principal: Principal, id: string) =>
  (await getJob(database.db, principal, id)).status

describe('JobRunner', () => {
  it('claims a queued job, stores its progress and result', async () => {
    const org = await newOrg()
    const gate = deferred()
    const r = runner([
      {
        kind: 'echo',
        async run(job, context) {
          context.progress(0.5, 'half way')
          await gate.promise
          return { echoed: job.input }
        },
      },
    ])
    const job = await queue(org, 'echo', { text: 'hello' })
    expect(job.status).toBe('queued')
    await r.start()
    await expect
      .poll(() => getJob(database.db, org, job.id))
      .toMatchObject({
        status: 'running',
        progress: 0.5,
        message: 'half way',
        attempts: 1,
      })
    gate.resolve()
    await expect
      .poll(() => getJob(database.db, org, job.id))
      .toMatchObject({
        status: 'succeeded',
        progress: 1,
        result: { echoed: { text: 'hello' } },
      })
  })

  it('cancels a running job through its AbortSignal and a queued one at once', async () => {
    const org = await newOrg()
    const aborted: string[] = []
    const r = runner([
      {
        kind: 'wait',
        run: (job, { signal }) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => {
              aborted.push(job.id)
              reject(signal.reason as Error)
            }),
          ),
      },
    ])
    const running = await queue(org, 'wait')
    const waiting = await queue(org, 'wait')
    await r.start()
    await expect.poll(() => statusOf(org, running.id)).toBe('running')
    expect((await cancelJob(database.db, org, waiting.id)).status).toBe('cancelled')
    await cancelJob(database.db, org, running.id)
    // Another process's cancellation reaches this runner through its heartbeat.
    await expect.poll(() => statusOf(org, running.id)).toBe('cancelled')
    expect(aborted).toEqual([running.id])
    await expect(cancelJob(database.db, org, running.id)).rejects.toMatchObject({ status: 409 })
  })

  it('fails a job with the AppError detail and never retries it', async () => {
    const org = await newOrg()
    let calls = 0
    const r = runner([
      {
        kind: 'refuse',
        async run() {
          calls += 1
          throw new AppError('no_text', 'This document has no text to analyze.')
        },
      },
    ])
    const job = await queue(org, 'refuse')
    await r.start()
    await expect
      .poll(() => getJob(database.db, org, job.id))
      .toMatchObject({
        status: 'failed',
        error: 'This document has no text to analyze.',
      })
    expect(calls).toBe(1)
  })

  it('retries an unexpected failure with backoff, then fails with a safe message', async () => {
    const org = await newOrg()
    const r = runner([
      {
        kind: 'flaky',
        async run() {
          throw new Error('connect ECONNREFUSED 10.0.0.7:5432')
        },
      },
    ])
    const job = await queue(org, 'flaky', {}, 2)
    await r.start()
    await expect
      .poll(() => getJob(database.db, org, job.id))
      .toMatchObject({
        status: 'queued',
        attempts: 1,
      })
    // Skip the backoff instead of sleeping through it.
    await database.db
      .update(jobs)
      .set({ runAfter: new Date(0) })
      .where(eq(jobs.id, job.id))
    r.wake()
    await expect
      .poll(() => getJob(database.db, org, job.id))
      .toMatchObject({ status: 'failed', attempts: 2 })
    const stored = await getJob(database.db, org, job.id)
    expect(stored.error).not.toContain('10.0.0.7')
  })

  it('retries a job left running by a crashed process, or fails it when out of attempts', async () => {
    const org = await newOrg()
    const retried = await queue(org, 'work', {}, 3)
    const exhausted = await queue(org, 'work', {}, 1)
    // Simulate a process that died mid-run: running, locked by a gone instance, attempts used.
    await database.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedBy: 'dead-process', heartbeatAt: new Date() })
      .where(sql`${jobs.id} in (${retried.id}, ${exhausted.id})`)
    const done: string[] = []
    const r = new JobRunner({ db: database.db, log: quietLog, exclusive: true, pollMs: 50 })
    runners.push(r)
    r.register({ kind: 'work', run: async (job) => void done.push(job.id) })
    await r.start()
    await expect.poll(() => statusOf(org, retried.id)).toBe('succeeded')
    expect(await getJob(database.db, org, exhausted.id)).toMatchObject({
      status: 'failed',
      error: INTERRUPTED_MESSAGE,
    })
    expect(done).toEqual([retried.id])
  })

  it("runs org B's short job before org A's backlog: it waits for one slot at most", async () => {
    const [a, b] = [await newOrg(), await newOrg()]
    const gates = new Map<string, { resolve: () => void }>()
    const order: string[] = []
    const r = runner([
      {
        kind: 'long',
        async run(job, { signal }) {
          order.push(`${job.orgId === a.orgId ? 'A' : 'B'}`)
          const gate = deferred()
          gates.set(job.id, gate)
          signal.addEventListener('abort', () => gate.resolve())
          await gate.promise
        },
      },
    ])
    const backlog: Awaited<ReturnType<typeof queue>>[] = []
    for (let i = 0; i < 10; i += 1) backlog.push(await queue(a, 'long'))
    await r.start()
    await expect.poll(() => statusOf(a, backlog[0]!.id)).toBe('running')
    const short = await queue(b, 'long')
    // A's first job holds the only slot; when it ends, B's job is next, not A's second.
    gates.get(backlog[0]!.id)!.resolve()
    await expect.poll(() => statusOf(b, short.id)).toBe('running')
    expect(order).toEqual(['A', 'B'])
    expect(await statusOf(a, backlog[1]!.id)).toBe('queued')
    gates.get(short.id)!.resolve()
    await expect.poll(() => statusOf(a, backlog[1]!.id)).toBe('running')
  })

  it('runs foreground jobs before background ones and keeps a slot free of background work', async () => {
    const org = await newOrg()
    const gates = new Map<string, { resolve: () => void }>()
    const order: string[] = []
    const gated: JobHandler['run'] = async (job, { signal }) => {
      order.push(job.kind)
      const gate = deferred()
      gates.set(job.id, gate)
      signal.addEventListener('abort', () => gate.resolve())
      await gate.promise
    }
    const r = runner(
      [
        { kind: 'indexing', run: gated },
        { kind: 'analysis', run: gated },
      ],
      2,
    )
    const indexing: Awaited<ReturnType<typeof queue>>[] = []
    for (let i = 0; i < 3; i += 1) indexing.push(await queue(org, 'indexing', {}, 3, true))
    const first = await queue(org, 'analysis')
    await r.start()
    // Queued after the indexing batch, the analysis is claimed first; one indexing job takes the
    // other slot and the rest wait, because background work never holds the last slot.
    await expect.poll(() => order.length).toBe(2)
    expect(order).toEqual(['analysis', 'indexing'])
    gates.get(first.id)!.resolve()
    await expect.poll(() => statusOf(org, first.id)).toBe('succeeded')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await statusOf(org, indexing[1]!.id)).toBe('queued')
    // A new analysis finds the free slot at once while indexing still runs.
    const second = await queue(org, 'analysis')
    await expect.poll(() => statusOf(org, second.id)).toBe('running')
    expect(await statusOf(org, indexing[0]!.id)).toBe('running')
    gates.get(second.id)!.resolve()
    gates.get(indexing[0]!.id)!.resolve()
    await expect.poll(() => statusOf(org, indexing[1]!.id)).toBe('running')
    expect(order).toEqual(['analysis', 'indexing', 'analysis', 'indexing'])
  })

  it('refuses a status outside the lifecycle and a progress outside 0..1 in the database', async () => {
    const org = await newOrg()
    const job = await queue(org, 'echo')
    for (const change of [sql`status = 'done'`, sql`progress = 1.5`, sql`progress = -0.1`]) {
      const error = await database.db
        .execute(sql`UPDATE jobs SET ${change} WHERE id = ${job.id}`)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect(String((error as Error).cause ?? error)).toMatch(
        /check constraint "jobs_(status|progress)_check"/,
      )
    }
    await database.db.execute(
      sql`UPDATE jobs SET status = 'cancelled', progress = 1 WHERE id = ${job.id}`,
    )
    expect(await statusOf(org, job.id)).toBe('cancelled')
  })

  it("keeps each organisation's jobs behind row-level security", async () => {
    const [a, b] = [await newOrg(), await newOrg()]
    const job = await queue(a, 'anything')
    await expect(getJob(database.db, b, job.id)).rejects.toMatchObject({ status: 404 })
    await expect(cancelJob(database.db, b, job.id)).rejects.toMatchObject({ status: 404 })
    const seenByB = await withTenant(database.db, b, (tx) => tx.select().from(jobs))
    expect(seenByB.map((j) => j.id)).not.toContain(job.id)
    await expect(
      withTenant(database.db, b, (tx) =>
        tx.update(jobs).set({ status: 'cancelled' }).where(eq(jobs.id, job.id)).returning(),
      ),
    ).resolves.toEqual([])
  })
})

describe('job retention', () => {
  it('deletes records of jobs finished before the retention period, and nothing else', async () => {
    const org = await newOrg()
    const ids = await Promise.all(
      ['old done', 'old failed', 'recent done', 'old queued', 'old running'].map(
        async (name) => (await queue(org, name)).id,
      ),
    )
    const [oldDone, oldFailed, recentDone, oldQueued, oldRunning] = ids as [
      string,
      string,
      string,
      string,
      string,
    ]
    const set = (id: string, status: string, finishedDaysAgo: number | null) =>
      database.db
        .update(jobs)
        .set({
          status,
          createdAt: sql`now() - interval '90 days'`,
          finishedAt:
            finishedDaysAgo === null
              ? null
              : sql`now() - make_interval(days => ${finishedDaysAgo})`,
        })
        .where(eq(jobs.id, id))
    await set(oldDone, 'succeeded', 31)
    await set(oldFailed, 'failed', 45)
    await set(recentDone, 'cancelled', 29)
    await set(oldQueued, 'queued', null)
    await set(oldRunning, 'running', null)

    expect(await purgeFinishedJobs(database.db, 30)).toBe(2)
    const left = await withTenant(database.db, org, (tx) => tx.select({ id: jobs.id }).from(jobs))
    expect(left.map((j) => j.id).sort()).toEqual([recentDone, oldQueued, oldRunning].sort())
  })
})

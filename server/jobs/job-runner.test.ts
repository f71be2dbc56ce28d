import { randomUUID } from 'node:crypto'
import { Writable } from 'node:stream'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { insertOrganisations, openTestDatabase } from '../test/test-database'
import type { Database } from '../db/client'
import { jobs } from '../db/schema'
import { withTenant, type Principal } from '../db/tenant'
import { AppError } from '../errors/app-error'
import { z } from 'zod'
import { CancelledError, JobRunner, ShutdownError, endsForGood } from './job-runner'
import { defineJobContract, type JobContext, type TypedJob } from './define-job-contract'
import { cancelJob, insertJob, getJob } from './job-service'
import { INTERRUPTED_MESSAGE, purgeFinishedJobs } from './job-store'
import { currentPoolShare } from '../workers/pool-share'
import { createNotifier } from '../realtime/notifier'
import { ChangeFeed } from '../realtime/change-feed'
import { createLogger } from '../http/logger'

let database: Database
const runners: JobRunner[] = []
const quietLog = { info: () => {}, warn: () => {}, error: () => {} }

beforeAll(async () => {
  database = await openTestDatabase()
})
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()))
  // No test's jobs left queued for the next one's runner (the tests run shuffled).
  await database.db.delete(jobs)
})
afterAll(() => database.close())

/** A new organisation and an owner principal for it (no user row: created_by stays null). */
async function newOrg(): Promise<Principal> {
  const id = randomUUID()
  await insertOrganisations(database, id)
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
    insertJob(tx, principal, { kind, input, maxAttempts, background }),
  )
}

/** A test job kind: any input, any result, the given work. */
type TestWork = {
  kind: string
  run: (job: TypedJob<unknown>, context: JobContext) => Promise<unknown>
}
const testJob = ({ kind }: TestWork) =>
  defineJobContract({ kind, input: z.unknown(), result: z.unknown() })

/** The handlers of `work`, by kind, as the composition binds them. */
const handlersOf = (work: TestWork[]) =>
  Object.fromEntries(work.map(({ kind, run }) => [kind, { run }])) as never

function runner(
  work: TestWork[],
  concurrency = 1,
  options: { exclusive?: boolean; db?: Database['db'] } = {},
): JobRunner<readonly ReturnType<typeof testJob>[]> {
  const r = new JobRunner({
    db: database.db,
    log: quietLog,
    concurrency,
    pollMs: 50,
    catalogue: work.map(testJob),
    ...options,
  })
  r.bind(handlersOf(work))
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

  it('keeps the last progress a job reports before it ends, however slow that write', async () => {
    const org = await newOrg()
    // A database whose next transaction waits 200 ms before it starts: the final progress write
    // is slower than the run's end, as a pooled PostgreSQL connection can be.
    let delayNext = false
    const slowDb = new Proxy(database.db, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver)
        if (key !== 'transaction' || typeof value !== 'function') return value
        return (...args: unknown[]) => {
          if (!delayNext) return Reflect.apply(value, target, args) as unknown
          delayNext = false
          return new Promise((resolve) => setTimeout(resolve, 200)).then(
            () => Reflect.apply(value, target, args) as unknown,
          )
        }
      },
    })
    const r = runner(
      [
        {
          kind: 'last-word',
          run(_job, context) {
            delayNext = true
            context.progress(1, '3 of 3 done')
            return Promise.resolve({})
          },
        },
      ],
      1,
      { db: slowDb },
    )
    const job = await queue(org, 'last-word')
    await r.start()
    await expect.poll(() => getJob(database.db, org, job.id)).toMatchObject({ status: 'succeeded' })
    expect(await getJob(database.db, org, job.id)).toMatchObject({
      progress: 1,
      message: '3 of 3 done',
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

  it('lets a running job finish within the grace of a stop, and claims nothing after drain', async () => {
    const org = await newOrg()
    const gate = deferred()
    const r = runner([{ kind: 'slow', run: () => gate.promise.then(() => ({ done: true })) }])
    const running = await queue(org, 'slow')
    await r.start()
    await expect.poll(() => statusOf(org, running.id)).toBe('running')
    r.drain()
    const later = await queue(org, 'slow')
    r.wake()
    const stopped = r.stop(60_000)
    gate.resolve()
    await stopped
    expect(await statusOf(org, running.id)).toBe('succeeded')
    expect(await statusOf(org, later.id)).toBe('queued')
  })

  it('hands back a job that outlasts the grace of a stop: queued, lease released, taken by another runner', async () => {
    const org = await newOrg()
    const never = (_job: unknown, { signal }: JobContext) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error)),
      )
    const first = runner([{ kind: 'long', run: never }])
    const job = await queue(org, 'long')
    await first.start()
    await expect.poll(() => statusOf(org, job.id)).toBe('running')
    await first.stop(50)
    const [row] = await database.db
      .select({ status: jobs.status, lockedBy: jobs.lockedBy })
      .from(jobs)
      .where(eq(jobs.id, job.id))
    expect(row).toEqual({ status: 'queued', lockedBy: null })
    // No lease to wait out: a second runner (another instance) claims it on its first look.
    const second = runner([{ kind: 'long', run: async () => ({ finished: true }) }])
    await second.start()
    await expect.poll(() => statusOf(org, job.id)).toBe('succeeded')
  })

  it('aborts a job its last claim started during the stop (stop race), so a stop without grace ends', async () => {
    const org = await newOrg()
    const never = (_job: unknown, { signal }: JobContext) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason as Error)),
      )
    const r = runner([{ kind: 'long', run: never }])
    const job = await queue(org, 'long')
    await r.start() // its first claim is in flight when start resolves
    let timer: NodeJS.Timeout | undefined
    const outcome = await Promise.race([
      r.stop().then(() => 'stopped'),
      // A hang guard, not a speed target: before the fix this stop never ended.
      new Promise((resolve) => (timer = setTimeout(() => resolve('hung'), 30_000))),
    ])
    clearTimeout(timer)
    expect(outcome).toBe('stopped')
    expect(await statusOf(org, job.id)).toBe('queued')
    // Handed back, it is another runner's to finish (and no later test's to find queued).
    const second = runner([{ kind: 'long', run: async () => ({ finished: true }) }])
    await second.start()
    await expect.poll(() => statusOf(org, job.id)).toBe('succeeded')
  })

  it('hands back a job whose handler ignores its signal, without waiting for it', async () => {
    const org = await newOrg()
    const gate = deferred()
    const r = runner([{ kind: 'deaf', run: () => gate.promise.then(() => ({ late: true })) }])
    const job = await queue(org, 'deaf')
    await r.start()
    await expect.poll(() => statusOf(org, job.id)).toBe('running')
    await r.stop(50)
    expect(await statusOf(org, job.id)).toBe('queued')
    // Its late end is not recorded over the hand-back.
    gate.resolve()
    await new Promise((resolve) => setImmediate(resolve))
    expect(await statusOf(org, job.id)).toBe('queued')
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

  it("logs a job's failed query without its bound parameters, whatever text they hold", async () => {
    const org = await newOrg()
    let logged = ''
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk)
        done()
      },
    })
    // Document text, with a line that reads like a stack frame, cast to JSON it is not: 22P02.
    const text = 'Privileged memo: settle at 4.2 million\n    at the Client’s cost {'
    const r = new JobRunner({
      db: database.db,
      log: createLogger({ level: 'info', stream }),
      pollMs: 50,
      catalogue: [testJob({ kind: 'bad-query', run: async () => null })],
    })
    r.bind(
      handlersOf([
        {
          kind: 'bad-query',
          run: () => withTenant(database.db, org, (tx) => tx.execute(sql`SELECT ${text}::jsonb`)),
        },
      ]),
    )
    runners.push(r)
    const job = await queue(org, 'bad-query', {}, 1)
    await r.start()
    await expect.poll(() => getJob(database.db, org, job.id)).toMatchObject({ status: 'failed' })
    await expect.poll(() => logged).toContain('job failed unexpectedly')
    expect(logged).toContain('invalid input syntax for type json')
    expect(logged).toContain('params: [redacted]')
    expect(logged).not.toContain('4.2 million')
    expect(logged).not.toContain('Client’s cost')
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
    const r = runner([{ kind: 'work', run: async (job) => void done.push(job.id) }], 1, {
      exclusive: true,
    })
    await r.start()
    await expect.poll(() => statusOf(org, retried.id)).toBe('succeeded')
    expect(await getJob(database.db, org, exhausted.id)).toMatchObject({
      status: 'failed',
      error: INTERRUPTED_MESSAGE,
    })
    expect(done).toEqual([retried.id])
  })

  it("starts org B's job while org A's long job holds the only slot, and A's backlog waits its turn", async () => {
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
    // A's first job holds the only slot; B, running nothing, starts on the spare at once.
    const short = await queue(b, 'long')
    await expect.poll(() => statusOf(b, short.id)).toBe('running')
    expect(order).toEqual(['A', 'B'])
    expect(await statusOf(a, backlog[1]!.id)).toBe('queued')
    // Once A's first ends, A runs one again beside B's: one job each, never two of A's.
    gates.get(backlog[0]!.id)!.resolve()
    await expect.poll(() => statusOf(a, backlog[1]!.id)).toBe('running')
    gates.get(short.id)!.resolve()
    await expect.poll(() => statusOf(b, short.id)).toBe('succeeded')
    expect(order).toEqual(['A', 'B', 'A'])
  })

  it('runs foreground jobs before background ones and keeps a slot free of background work', async () => {
    const org = await newOrg()
    const gates = new Map<string, { resolve: () => void }>()
    const order: string[] = []
    const gated: TestWork['run'] = async (job, { signal }) => {
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

  it("runs each job's worker-pool work in its own organisation's share of the pool", async () => {
    const [a, b] = [await newOrg(), await newOrg()]
    const r = runner(
      [
        {
          kind: 'share',
          // Deep in a handler, after awaits, as an engine's pool task would be.
          run: async () => {
            await Promise.resolve()
            return { share: currentPoolShare() }
          },
        },
      ],
      2,
    )
    const [ofA, ofB] = [await queue(a, 'share'), await queue(b, 'share')]
    await r.start()
    await expect.poll(() => statusOf(a, ofA.id)).toBe('succeeded')
    await expect.poll(() => statusOf(b, ofB.id)).toBe('succeeded')
    expect((await getJob(database.db, a, ofA.id)).result).toEqual({ share: a.orgId })
    expect((await getJob(database.db, b, ofB.id)).result).toEqual({ share: b.orgId })
  })

  it('never claims a job of a kind it has no handler for, while it runs the kinds it has', async () => {
    const org = await newOrg()
    const ran: string[] = []
    const r = runner([{ kind: 'handled', run: async (job) => void ran.push(job.id) }])
    // Queued first, so a runner claiming any kind would take it before the handled one.
    const foreign = await queue(org, 'handled-elsewhere')
    const handled = await queue(org, 'handled')
    await r.start()
    await expect.poll(() => statusOf(org, handled.id)).toBe('succeeded')
    const later = await queue(org, 'handled')
    r.wake()
    await expect.poll(() => statusOf(org, later.id)).toBe('succeeded')
    expect(await getJob(database.db, org, foreign.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      error: null,
    })
    expect(ran).toEqual([handled.id, later.id])
  })

  it("stores the code of a failure: the AppError's, or internal_error for an unexpected one", async () => {
    const org = await newOrg()
    const r = runner([
      {
        kind: 'refuse',
        run: () => Promise.reject(new AppError('no_text', 'This document has no text.')),
      },
      { kind: 'crash', run: () => Promise.reject(new Error('segfault at 0x0')) },
    ])
    const refused = await queue(org, 'refuse')
    const crashed = await queue(org, 'crash', {}, 1)
    await r.start()
    await expect
      .poll(() => getJob(database.db, org, refused.id))
      .toMatchObject({ status: 'failed', errorCode: 'no_text' })
    await expect
      .poll(() => getJob(database.db, org, crashed.id))
      .toMatchObject({ status: 'failed', errorCode: 'internal_error' })
  })

  it("queues through enqueue only what the kind's schema accepts, and runs it without a wake call", async () => {
    const org = await newOrg()
    const seen: unknown[] = []
    const greet = defineJobContract({
      kind: 'greet',
      input: z.object({ name: z.string().min(1) }),
      result: z.object({ greeting: z.string() }),
      maxAttempts: 1,
    })
    const r = new JobRunner({ db: database.db, log: quietLog, pollMs: 60_000, catalogue: [greet] })
    r.bind({
      greet: {
        run: async (job) => {
          seen.push(job.input)
          return { greeting: `Hello, ${job.input.name}` }
        },
      },
    })
    runners.push(r)
    await r.start()
    // The poll is a minute away: only enqueue's own wake can start the job in time.
    const job = await withTenant(database.db, org, (tx) =>
      r.enqueue(tx, org, 'greet', { name: 'Ada' }),
    )
    await expect
      .poll(() => getJob(database.db, org, job.id))
      .toMatchObject({ status: 'succeeded', result: { greeting: 'Hello, Ada' } })
    expect(seen).toEqual([{ name: 'Ada' }])

    const refused = withTenant(database.db, org, (tx) =>
      // @ts-expect-error a greet job takes a name, not a count: the compiler refuses it
      r.enqueue(tx, org, 'greet', { count: 3 }),
    )
    await expect(refused).rejects.toMatchObject({ code: 'job_input_invalid', status: 500 })
    const unknownKind = withTenant(database.db, org, (tx) =>
      // @ts-expect-error a kind outside the catalogue does not compile either
      r.enqueue(tx, org, 'sing', {}),
    )
    await expect(unknownKind).rejects.toMatchObject({ code: 'unknown_job_kind' })
    const rows = await withTenant(database.db, org, (tx) => tx.select({ id: jobs.id }).from(jobs))
    expect(rows.map((row) => row.id)).toEqual([job.id])
  })

  it('is woken by the commit of the transaction that queued a job: no claim while it is open, the job run at once after', async () => {
    const org = await newOrg()
    const notifier = createNotifier(database, quietLog)
    const changes = new ChangeFeed(notifier, quietLog)
    await changes.start()
    // Counts the runner's transactions (its claims: the poll is a minute away) begun while the
    // queueing transaction is open.
    let open = false
    let claimsWhileOpen = 0
    const watchedDb = new Proxy(database.db, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver)
        if (key !== 'transaction' || typeof value !== 'function') return value
        return (...args: unknown[]) => {
          if (open) claimsWhileOpen += 1
          return Reflect.apply(value, target, args) as unknown
        }
      },
    })
    const echo = defineJobContract({ kind: 'echo', input: z.unknown(), result: z.unknown() })
    const r = new JobRunner({
      db: watchedDb,
      log: quietLog,
      pollMs: 60_000,
      catalogue: [echo],
      changes,
    })
    r.bind({ echo: { run: async (job) => ({ echoed: job.input }) } })
    runners.push(r)
    try {
      await r.start()
      const job = await withTenant(database.db, org, async (tx) => {
        open = true
        const queued = await r.enqueue(tx, org, 'echo', { text: 'after commit' })
        // More work in the same transaction: a claim woken by enqueue would begin meanwhile.
        await tx.execute(sql`SELECT 1`)
        open = false
        return queued
      })
      expect(claimsWhileOpen).toBe(0)
      // Neither enqueue nor the poll wakes it: the jobs table's insert notification does.
      await expect
        .poll(() => getJob(database.db, org, job.id))
        .toMatchObject({ status: 'succeeded', result: { echoed: { text: 'after commit' } } })

      // A job queued by another process (or by SQL, as the documents trigger queues indexing)
      // is run as its transaction commits too, not at the next poll.
      const elsewhere = await queue(org, 'echo', { text: 'from elsewhere' })
      await expect
        .poll(() => getJob(database.db, org, elsewhere.id))
        .toMatchObject({ status: 'succeeded', result: { echoed: { text: 'from elsewhere' } } })
    } finally {
      await r.stop()
      await changes.close()
      await notifier.close()
    }
  })

  it('fails a job whose stored input its kind refuses, with job_input_invalid, and never runs it', async () => {
    const org = await newOrg()
    let ran = false
    const r = new JobRunner({
      db: database.db,
      log: quietLog,
      pollMs: 50,
      catalogue: [
        defineJobContract({
          kind: 'strict',
          input: z.object({ documentId: z.string().uuid() }),
          result: z.null(),
        }),
      ],
    })
    r.bind({
      strict: {
        run: async () => {
          ran = true
          return null
        },
      },
    })
    runners.push(r)
    const job = await queue(org, 'strict', { documentId: 'not-a-uuid' })
    await r.start()
    await expect
      .poll(() => getJob(database.db, org, job.id))
      .toMatchObject({ status: 'failed', errorCode: 'job_input_invalid', attempts: 1 })
    expect(ran).toBe(false)
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

describe('endsForGood', () => {
  const aborted = (reason: unknown) => {
    const controller = new AbortController()
    controller.abort(reason)
    return controller.signal
  }
  const running = new AbortController().signal

  it('is true for a cancel, an AppError and an unexpected failure on the last attempt only', () => {
    const first = { attempts: 1, maxAttempts: 2 }
    const last = { attempts: 2, maxAttempts: 2 }
    expect(endsForGood(first, new Error('x'), aborted(new CancelledError()))).toBe(true)
    expect(endsForGood(first, new AppError('file_not_found', 'gone'), running)).toBe(true)
    expect(endsForGood(first, new Error('crash'), running)).toBe(false)
    expect(endsForGood(last, new Error('crash'), running)).toBe(true)
    // The server's stop hands the job back: another run will come, whatever the attempt.
    expect(endsForGood(last, new Error('x'), aborted(new ShutdownError()))).toBe(false)
  })
})

describe('recurring tasks', () => {
  it('runs a task first after its delay and then every period, and runs it again after a failure', async () => {
    const r = runner([])
    const runs: number[] = []
    let fail = true
    const startedAt = Date.now()
    r.every({
      name: 'test task',
      firstAfterMs: 200,
      everyMs: 300,
      run: async () => {
        runs.push(Date.now() - startedAt)
        if (fail) {
          fail = false
          throw new Error('first run fails')
        }
      },
    })
    await r.start()
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect(runs).toEqual([])
    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(2), { timeout: 5000 })
    await r.stop()
    expect(runs[0]).toBeGreaterThanOrEqual(200)
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(250)
  })
})

import { threadId, type ResourceLimits } from 'node:worker_threads'
import { afterAll, describe, expect, it } from 'vitest'
import { AppError } from '../errors/app-error'
import type { ErrorCode } from '../errors/error-codes'
import { poolTask, WorkerPool, WorkerTaskFailure } from './worker-pool'
import { withPoolShare } from './pool-share'

const TASKS = new URL('../test/pool-tasks.ts', import.meta.url)
const echo = poolTask<string, { input: string; threadId: number }>(TASKS, 'echo')
const stepped = poolTask<null, string>(TASKS, 'stepped')
const spin = poolTask<null, never>(TASKS, 'spin')
const exhaustHeap = poolTask<null, number>(TASKS, 'exhaustHeap')
const throwPlain = poolTask<string, never>(TASKS, 'throwPlain')
const hoardMemory = poolTask<number, number>(TASKS, 'hoardMemory')
const limits = poolTask<null, ResourceLimits>(TASKS, 'limits')
const fail = poolTask<{ code: ErrorCode; detail: string }, never>(TASKS, 'fail')

const pool = new WorkerPool({ threads: 2, heapMb: 64 })
afterAll(() => pool.close())

describe('WorkerPool', () => {
  it('runs a task on another thread and returns its value', async () => {
    const result = await pool.run(echo, 'hello')
    expect(result.input).toBe('hello')
    expect(result.threadId).not.toBe(threadId)
  })

  it('delivers progress reports in order', async () => {
    const reports: [number, string][] = []
    const result = await pool.run(stepped, null, {
      onProgress: (fraction, message) => reports.push([fraction, message]),
    })
    expect(result).toBe('finished')
    // Messages on the progress port may land just after the result: wait for the last one.
    await expect.poll(() => reports.length).toBe(3)
    expect(reports).toEqual([
      [0.25, 'first quarter'],
      [0.5, 'half way'],
      [1, 'done'],
    ])
  })

  it('rethrows an AppError thrown in the task with its code and status', async () => {
    const error = await pool
      .run(fail, { code: 'too_many_pages', detail: 'Too many pages.' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ code: 'too_many_pages', status: 413, detail: 'Too many pages.' })
  })

  it('passes a plain error of the task on as it was thrown, counted once and not as a crash', async () => {
    const before = pool.stats().failed
    const error = await pool.run(throwPlain, 'no such clause').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(WorkerTaskFailure)
    expect(error).toMatchObject({ message: 'no such clause' })
    expect(pool.stats().failed - before).toBe(1)
  })

  it('stops a task at its timeout and keeps serving', async () => {
    const error = await pool.run(spin, null, { timeoutMs: 300 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WorkerTaskFailure)
    expect(error).toMatchObject({ reason: 'timeout' })
    await expect(pool.run(echo, 'after')).resolves.toMatchObject({ input: 'after' })
  })

  it("turns a failure its task's failure map names into that AppError, and leaves the others", async () => {
    const mapped = poolTask<null, never>(TASKS, 'spin', {
      timeout: {
        code: 'extraction_timeout',
        detail: (timeoutMs) => `Stopped after ${timeoutMs / 1000} seconds.`,
      },
    })
    const error = await pool.run(mapped, null, { timeoutMs: 300 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({
      code: 'extraction_timeout',
      status: 422,
      detail: 'Stopped after 0.3 seconds.',
      cause: expect.any(WorkerTaskFailure),
    })
    const controller = new AbortController()
    const aborted = pool.run(mapped, null, { signal: controller.signal })
    await expect.poll(() => pool.stats().running).toBeGreaterThan(0)
    controller.abort(new Error('user cancelled'))
    await expect(aborted).rejects.toThrow('user cancelled')
    const slot = await pool
      .runOnSlot(
        (signal) =>
          new Promise((_, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason as Error)),
          ),
        {
          timeoutMs: 300,
          failures: { timeout: { code: 'audio_timeout', detail: 'Too long.' } },
        },
      )
      .catch((e: unknown) => e)
    expect(slot).toMatchObject({ code: 'audio_timeout', detail: 'Too long.' })
  })

  it("stops a task that sets no timeout at the pool's own", async () => {
    const strict = new WorkerPool({ threads: 1, taskTimeoutMs: 300 })
    try {
      const error = await strict.run(spin, null).catch((e: unknown) => e)
      expect(error).toMatchObject({ reason: 'timeout' })
    } finally {
      await strict.close()
    }
  })

  it('aborts a running task with the caller reason', async () => {
    const controller = new AbortController()
    const running = pool.run(spin, null, { signal: controller.signal })
    await expect.poll(() => pool.stats().running).toBeGreaterThan(0)
    controller.abort(new Error('user cancelled'))
    await expect(running).rejects.toThrow('user cancelled')
  })

  it('turns a heap bomb into an out_of_memory failure and replaces the thread', async () => {
    const error = await pool.run(exhaustHeap, null).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WorkerTaskFailure)
    expect(error).toMatchObject({ reason: 'out_of_memory' })
    await expect(pool.run(echo, 'still here')).resolves.toMatchObject({ input: 'still here' })
  })

  it('caps the young generation of a thread so a heap bomb ends the thread, never the process', async () => {
    // Past 48 MB a scavenge can promote more than the 16 MB Node grants a capped thread to end,
    // and V8 aborts the process (server/workers/thread-limits.ts); Node 24's default is 192 MB.
    const caps = await pool.run(limits, null)
    expect(caps.maxOldGenerationSizeMb).toBe(64)
    expect(caps.maxYoungGenerationSizeMb).toBeLessThan(48)
  })

  it('queues past its thread count and counts what it ran', async () => {
    const before = pool.stats()
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((s) => pool.run(echo, s)))
    expect(results.map((r) => r.input)).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(new Set(results.map((r) => r.threadId)).size).toBeLessThanOrEqual(2)
    const after = pool.stats()
    expect(after.completed - before.completed).toBe(5)
    expect(after).toMatchObject({ queued: 0, running: 0 })
    expect(after.failed).toBeGreaterThanOrEqual(before.failed)
  })
})

describe('WorkerPool thread recycling', () => {
  it('replaces a thread that kept more memory than recycleAboveMb after its task, and the next task runs', async () => {
    const single = new WorkerPool({ threads: 1, recycleAboveMb: 96 })
    try {
      const grown = await single.run(hoardMemory, 128)
      const next = await single.run(echo, 'after the hoard')
      expect(next.input).toBe('after the hoard')
      expect(next.threadId).not.toBe(grown)
      expect(single.stats().recycled).toBe(1)
    } finally {
      await single.close()
    }
  })

  it('keeps a thread whose task stayed below the threshold', async () => {
    const single = new WorkerPool({ threads: 1, recycleAboveMb: 96 })
    try {
      const first = await single.run(hoardMemory, 1)
      const second = await single.run(echo, 'same thread')
      expect(second.threadId).toBe(first)
      expect(single.stats().recycled).toBe(0)
    } finally {
      await single.close()
    }
  })

  it('gives queued tasks to the replacement thread, none to the one being retired', async () => {
    const single = new WorkerPool({ threads: 1, recycleAboveMb: 96 })
    try {
      const [grown, ...after] = await Promise.all([
        single.run(hoardMemory, 128),
        single.run(echo, 'queued a'),
        single.run(echo, 'queued b'),
      ])
      expect(after.map((r) => r.input)).toEqual(['queued a', 'queued b'])
      expect(after.every((r) => r.threadId !== grown)).toBe(true)
    } finally {
      await single.close()
    }
  })
})

describe('WorkerPool.runOnSlot', () => {
  /** A promise with its resolve and reject. */
  function deferred<T>() {
    let resolve!: (value: T) => void
    let reject!: (error: unknown) => void
    const promise = new Promise<T>((res, rej) => {
      resolve = res
      reject = rej
    })
    return { promise, resolve, reject }
  }

  it('holds a thread while the work runs, so other tasks queue behind it, and counts it', async () => {
    const single = new WorkerPool({ threads: 1 })
    try {
      const gate = deferred<string>()
      let started = false
      const held = single.runOnSlot(() => {
        started = true
        return gate.promise
      })
      await expect.poll(() => started).toBe(true)
      const queued = single.run(echo, 'after')
      await expect.poll(() => single.stats().queued).toBe(1)
      gate.resolve('done')
      await expect(held).resolves.toBe('done')
      await expect(queued).resolves.toMatchObject({ input: 'after' })
      expect(single.stats()).toMatchObject({ completed: 2, failed: 0 })
    } finally {
      await single.close()
    }
  })

  it("passes the work's own error on and counts it as failed", async () => {
    const before = pool.stats().failed
    const error = new AppError('bad_audio', 'Not audio.')
    await expect(pool.runOnSlot(() => Promise.reject(error))).rejects.toBe(error)
    expect(pool.stats().failed - before).toBe(1)
  })

  it('aborts the work at the timeout and rejects with a timeout failure', async () => {
    let workSignal: AbortSignal | undefined
    const result = await pool
      .runOnSlot(
        (signal) => {
          workSignal = signal
          return new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(signal.reason as Error)),
          )
        },
        { timeoutMs: 200 },
      )
      .catch((e: unknown) => e)
    expect(result).toBeInstanceOf(WorkerTaskFailure)
    expect(result).toMatchObject({ reason: 'timeout' })
    expect(workSignal?.aborted).toBe(true)
  })

  it("aborts the work with the caller's reason", async () => {
    const controller = new AbortController()
    let running = false
    const held = pool.runOnSlot(
      (signal) => {
        running = true
        return new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error)),
        )
      },
      { signal: controller.signal },
    )
    await expect.poll(() => running).toBe(true)
    controller.abort(new Error('user cancelled'))
    await expect(held).rejects.toThrow('user cancelled')
  })
})

describe('WorkerPool fairness between organisations', () => {
  /** A fake page of OCR: holds a slot as `orgId` until its gate opens. */
  function page(pool: WorkerPool, orgId: string, started: string[], label: string) {
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const done = pool.runOnSlot(
      async () => {
        started.push(label)
        await gate
        return label
      },
      { orgId },
    )
    return { open, done }
  }

  it("another organisation's extraction runs while one organisation's long OCR holds the pool", async () => {
    const fair = new WorkerPool({ threads: 2 })
    try {
      const started: string[] = []
      // Firm A's scan: two pages read at once, and the rest of its pages queued behind them.
      const pages = ['p1', 'p2', 'p3', 'p4'].map((label) => page(fair, 'firm-a', started, label))
      // The two threads may start in either order.
      await expect.poll(() => [...started].sort()).toEqual(['p1', 'p2'])
      // Firm B's upload is read while every page of A still holds its slot.
      let upload: { input: string } | undefined
      void fair.run(echo, 'firm B upload', { orgId: 'firm-b' }).then((r) => (upload = r))
      await expect.poll(() => upload?.input, { timeout: 30_000 }).toBe('firm B upload')
      expect([...started].sort()).toEqual(['p1', 'p2'])
      expect(fair.stats()).toMatchObject({ queued: 2, running: 2 })
      for (const p of pages) p.open()
      await expect(Promise.all(pages.map((p) => p.done))).resolves.toEqual(['p1', 'p2', 'p3', 'p4'])
    } finally {
      await fair.close()
    }
  })

  it("gives a freed slot to a waiting organisation before the next page of another's scan", async () => {
    const fair = new WorkerPool({ threads: 1 })
    try {
      const started: string[] = []
      const [a1, a2] = ['a1', 'a2'].map((label) => page(fair, 'firm-a', started, label))
      await expect.poll(() => started).toEqual(['a1'])
      // Firm B holds the spare slot; firm C queues after A's second page.
      const b1 = page(fair, 'firm-b', started, 'b1')
      await expect.poll(() => started).toEqual(['a1', 'b1'])
      const c1 = page(fair, 'firm-c', started, 'c1')
      a1!.open()
      await expect.poll(() => started).toEqual(['a1', 'b1', 'c1'])
      for (const p of [a2!, b1, c1]) p.open()
      await Promise.all([a1!.done, a2!.done, b1.done, c1.done])
      expect(started).toEqual(['a1', 'b1', 'c1', 'a2'])
    } finally {
      await fair.close()
    }
  })

  it('counts work for the organisation of the share it runs in, unless it names its own', async () => {
    const fair = new WorkerPool({ threads: 1 })
    try {
      const started: string[] = []
      const held = page(fair, 'firm-a', started, 'a1')
      await expect.poll(() => started).toEqual(['a1'])
      // Inside firm A's share (a job of A), a task waits for A's turn: A holds the only slot.
      const inShare = withPoolShare('firm-a', () => fair.run(echo, 'job of A'))
      await expect.poll(() => fair.stats().queued).toBe(1)
      // Firm B names its own organisation: the spare slot is B's at once.
      await expect(
        withPoolShare('firm-a', () => fair.run(echo, 'upload of B', { orgId: 'firm-b' })),
      ).resolves.toMatchObject({ input: 'upload of B' })
      expect(fair.stats().queued).toBe(1)
      held.open()
      await expect(inShare).resolves.toMatchObject({ input: 'job of A' })
    } finally {
      await fair.close()
    }
  })
})

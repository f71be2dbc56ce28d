import { sql } from 'drizzle-orm'
import Fastify, { type FastifyInstance } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Database } from '../db/client'
import { openTestDatabase } from '../test/test-database'
import { databaseRateLimitStore } from './database-rate-limit-store'

let database: Database
beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(() => database.close())

/** A server process as far as rate limits go: its own plugin and store on the shared database. */
async function instance(): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(database.db) })
  await app.ready()
  return app
}

/** Counts one request of `key` on `app` against a limit of `max` per `timeWindow` ms. */
async function hit(app: FastifyInstance, key: string, max: number, timeWindow = 60_000) {
  const limiter = app.createRateLimit({ max, timeWindow, keyGenerator: () => key })
  const result = await limiter({ routeOptions: {} } as never)
  // Only an allow list answers isAllowed, and these limiters have none.
  if (result.isAllowed) throw new Error('the limiter allowed a key outright')
  return result
}

describe('the database rate-limit store', () => {
  it('counts the requests of one key made through two processes together', async () => {
    const [one, two] = [await instance(), await instance()]
    const key = `client:${crypto.randomUUID()}`
    const results = []
    for (let i = 0; i < 4; i++) results.push(await hit(i % 2 === 0 ? one : two, key, 3))
    expect(results.map((r) => !r.isAllowed && r.isExceeded)).toEqual([false, false, false, true])
    expect(results[3]).toMatchObject({ remaining: 0 })
    expect(results[0]!.ttl).toBeGreaterThan(55_000)
    expect(results[0]!.ttl).toBeLessThanOrEqual(60_000)
    await Promise.all([one.close(), two.close()])
  })

  it('counts each key apart', async () => {
    const app = await instance()
    const [a, b] = [`a:${crypto.randomUUID()}`, `b:${crypto.randomUUID()}`]
    await hit(app, a, 1)
    expect((await hit(app, a, 1)).isExceeded).toBe(true)
    expect((await hit(app, b, 1)).isExceeded).toBe(false)
    await app.close()
  })

  it('starts a window again at one once it has ended', async () => {
    const app = await instance()
    const key = `ended:${crypto.randomUUID()}`
    await hit(app, key, 1)
    // Ends the window without waiting for it.
    await database.db.execute(
      sql`UPDATE rate_limit_counters SET window_ends = now() - interval '1 second'`,
    )
    const again = await hit(app, key, 1)
    expect(again.isExceeded).toBe(false)
    expect(again.remaining).toBe(0)
    await app.close()
  })

  it('counts concurrent requests without losing one', async () => {
    const app = await instance()
    const key = `burst:${crypto.randomUUID()}`
    const results = await Promise.all(Array.from({ length: 20 }, () => hit(app, key, 100)))
    expect(results.map((r) => r.remaining).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => 80 + i),
    )
    await app.close()
  })

  it('sends a burst of counts in a few statements, each answered with its own count', async () => {
    const app = await instance()
    const [a, b] = [`burst-a:${crypto.randomUUID()}`, `burst-b:${crypto.randomUUID()}`]
    const execute = vi.spyOn(database.db, 'execute')
    try {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => hit(app, i % 3 === 0 ? b : a, 100)),
      )
      // The first count goes alone; the 29 asked for meanwhile go together in the next upsert.
      expect(execute.mock.calls.length).toBeLessThanOrEqual(3)
      const remaining = (key: string) =>
        results
          .filter((_, i) => (i % 3 === 0 ? b : a) === key)
          .map((r) => r.remaining)
          .sort((x, y) => x - y)
      expect(remaining(a)).toEqual(Array.from({ length: 20 }, (_, i) => 80 + i))
      expect(remaining(b)).toEqual(Array.from({ length: 10 }, (_, i) => 90 + i))
    } finally {
      execute.mockRestore()
      await app.close()
    }
  })

  it('leases a share of a large budget: two processes grant exactly the budget in a third of the statements', async () => {
    const [one, two] = [await instance(), await instance()]
    const key = `leased:${crypto.randomUUID()}`
    const execute = vi.spyOn(database.db, 'execute')
    try {
      const results = []
      for (let i = 0; i < 230; i++) results.push(await hit(i % 2 === 0 ? one : two, key, 200))
      // A budget of 200 leases 2 with each count: a statement serves three requests.
      expect(results.filter((r) => !r.isExceeded)).toHaveLength(200)
      expect(execute.mock.calls.length).toBeLessThanOrEqual(Math.ceil(230 / 3) + 2)
    } finally {
      execute.mockRestore()
      await Promise.all([one.close(), two.close()])
    }
  })

  it('hands out no leased count after its window has ended', async () => {
    const app = await instance()
    const key = `lease-ends:${crypto.randomUUID()}`
    const execute = vi.spyOn(database.db, 'execute')
    const now = Date.now()
    try {
      await hit(app, key, 1000, 60_000)
      expect((await hit(app, key, 1000, 60_000)).remaining).toBe(998)
      expect(execute).toHaveBeenCalledTimes(1)
      vi.spyOn(Date, 'now').mockReturnValue(now + 60_001)
      await hit(app, key, 1000, 60_000)
      expect(execute).toHaveBeenCalledTimes(2)
    } finally {
      vi.restoreAllMocks()
      await app.close()
    }
  })

  it('refuses the counts of a failed upsert and counts the next ones', async () => {
    const app = await instance()
    const key = `failing:${crypto.randomUUID()}`
    const execute = vi.spyOn(database.db, 'execute').mockRejectedValueOnce(new Error('gone'))
    try {
      const failed = await Promise.allSettled([hit(app, key, 5)])
      expect(failed[0]!.status).toBe('rejected')
      expect((await hit(app, key, 5)).remaining).toBe(4)
    } finally {
      execute.mockRestore()
      await app.close()
    }
  })
})

/**
 * The health probes outside /api: `/healthz` (the process answers) and `/readyz` (the database
 * answers and no stop has begun; with the worker pool's counters, WorkerPool.stats). A failed
 * readiness check is a 503 problem with code `database_unavailable`, or `shutting_down` while the
 * process drains (server/ops/lifecycle.ts), so a load balancer sends its requests elsewhere.
 */
import { sql } from 'drizzle-orm'
import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Db } from '../db/client'
import type { WorkerPool } from '../workers/worker-pool'
import { AppError } from '../errors/app-error'
import { problemResponse } from '../http/problem-responses'
import type { Lifecycle } from '../ops/lifecycle'

const WorkerPoolStatsSchema = z.object({
  threads: z.number().int().describe('Threads alive now'),
  queued: z.number().int().describe('Tasks waiting for a thread'),
  running: z.number().int().describe('Tasks on a thread'),
  completed: z.number().int().describe('Tasks finished since start'),
  failed: z.number().int().describe('Tasks that failed since start, for any reason'),
  recycled: z
    .number()
    .int()
    .describe('Threads retired since start for holding too much memory after a task'),
})

/** The problems any request may meet, before the probe runs or inside it. */
const PROBE_ERRORS = {
  '4xx': problemResponse('The request was refused before the probe ran, e.g. a malformed URL'),
  '5xx': problemResponse('The server could not answer'),
}

export const healthRoutes: FastifyPluginAsyncZod<{
  db: Db
  pool: WorkerPool
  lifecycle: Lifecycle
}> = async (app, { db, pool, lifecycle }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        operationId: 'health',
        response: { 200: z.object({ status: z.literal('ok') }), ...PROBE_ERRORS },
      },
    },
    () => ({ status: 'ok' as const }),
  )

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        operationId: 'ready',
        description:
          "Ready when the database answers and the server is not stopping; with the worker pool's counters.",
        response: {
          200: z.object({ status: z.literal('ready'), workers: WorkerPoolStatsSchema }),
          503: problemResponse(
            'The database does not answer (code database_unavailable), or the server is stopping (shutting_down)',
          ),
          ...PROBE_ERRORS,
        },
      },
    },
    async () => {
      if (lifecycle.draining)
        throw new AppError('shutting_down', 'The server is stopping; send requests elsewhere.')
      try {
        await db.execute(sql`select 1`)
      } catch (error) {
        throw new AppError('database_unavailable', 'The database does not answer.', {}, error)
      }
      return { status: 'ready' as const, workers: pool.stats() }
    },
  )
}

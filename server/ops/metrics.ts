/**
 * Prometheus metrics of one process (issue 28, decision 0068), with prom-client on a registry of
 * its own (never the global one, so two apps in one test process do not clash):
 * - `http_request_duration_seconds` (histogram; method, route pattern, status): the route's
 *   pattern (`/api/v1/orgs/:orgId/documents/:documentId`), never the raw URL, which holds ids
 *   and query values and would make a series per document; `unmatched` for 404s of no route;
 * - `lexdesk_jobs_finished_total` and `lexdesk_job_duration_seconds` (kind, outcome): each run of
 *   a job in this process, as recorded (succeeded, failed, cancelled, or queued again: retried or
 *   handed back at a stop);
 * - `lexdesk_worker_pool_queue_length`, `lexdesk_worker_pool_running`: the worker pool's tasks;
 * - `lexdesk_db_pool_connections` (state: total, idle, waiting, max): PostgreSQL's pool;
 * - Node's default process metrics (CPU, memory, event-loop lag, handles).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** What the gauges read when scraped (structural: WorkerPool.stats, Database.connections). */
export interface MetricsSources {
  workerPool: () => { queued: number; running: number }
  dbConnections?: () => { total: number; idle: number; waiting: number; max: number }
}

/** Seconds: from a fast read (5 ms) to a slow upload or export (30 s). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
/** Seconds: jobs run from a fraction of a second (indexing a note) to an hour (a long recording). */
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600]

export interface Metrics {
  readonly registry: Registry
  /** Records one answered HTTP request; `route` is the pattern, undefined when none matched. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void
  /** Records the end of one run of a job of `kind` after `seconds`. */
  observeJob(kind: string, outcome: string, seconds: number): void
}

/** Creates the metrics of this process, reading `sources` at each scrape. */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  })
  const jobsFinished = new Counter({
    name: 'lexdesk_jobs_finished_total',
    help: 'Runs of background jobs ended in this process, by kind and outcome',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  })
  const jobDuration = new Histogram({
    name: 'lexdesk_job_duration_seconds',
    help: 'Time a run of a background job took in this process, by kind and outcome',
    labelNames: ['kind', 'outcome'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  })
  new Gauge({
    name: 'lexdesk_worker_pool_queue_length',
    help: 'Tasks waiting for a worker thread',
    registers: [registry],
    collect() {
      this.set(sources.workerPool().queued)
    },
  })
  new Gauge({
    name: 'lexdesk_worker_pool_running',
    help: 'Tasks on a worker thread',
    registers: [registry],
    collect() {
      this.set(sources.workerPool().running)
    },
  })
  const { dbConnections } = sources
  if (dbConnections)
    new Gauge({
      name: 'lexdesk_db_pool_connections',
      help: "The database pool's connections (total, idle, max) and queries waiting for one",
      labelNames: ['state'],
      registers: [registry],
      collect() {
        for (const [state, value] of Object.entries(dbConnections())) this.set({ state }, value)
      },
    })
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      http.observe({ method, route: route ?? 'unmatched', status_code: String(status) }, seconds)
    },
    observeJob(kind, outcome, seconds) {
      jobsFinished.inc({ kind, outcome })
      jobDuration.observe({ kind, outcome }, seconds)
    },
  }
}

/**
 * The typed container of what features use: database, blob store, worker pool, AI engines and
 * limits. buildApp makes one and hands it to every feature plugin, so a new engine or store is a
 * field here and one line of wiring, not a new parameter threaded through each plugin.
 */
import type { Db } from './db/client'
import type { BlobStore } from './blob/blob-store'
import type { WorkerPool } from './workers/worker-pool'
import type { Engines } from './ai/engines'
import type { JobRunner } from './jobs/job-runner'

export interface AppServices {
  db: Db
  blobs: BlobStore
  pool: WorkerPool
  engines: Engines
  /** Background jobs: features register handlers and wake it after queueing. */
  jobs: JobRunner
  limits: {
    /** Text extraction of uploads: PDF page limit and wall-clock seconds (issue 5). */
    extraction: { maxPdfPages: number; timeoutSeconds: number }
  }
}

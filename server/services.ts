/**
 * The two typed containers of the app's wiring. AppResources: what the process creates, owns and
 * closes (main.ts, the tests), handed to buildApp as one value. AppServices: what features use,
 * made by buildApp from the resources and handed to every feature plugin. A new engine is a field
 * of Engines; a new store a field of AppResources, which AppServices carries on by itself: one
 * line of wiring where it is created, not a parameter threaded through each plugin.
 */
import type { Database, Db } from './db/client'
import type { BlobStore } from './blob/blob-store'
import type { Mailer } from './mail/mailer'
import type { WorkerPool } from './workers/worker-pool'
import type { Engines } from './ai/engines'
import type { JobRunner } from './jobs/job-runner'
import type { AppJobCatalogue } from './job-catalogue'
import type { EventStreams } from './http/event-streams'
import type { Notifier } from './realtime/notifier'
import type { ChangeFeed } from './realtime/change-feed'

export interface AppResources {
  database: Database
  /** Files: originals of uploads, recordings, import files. */
  blobs: BlobStore
  /** Sign-in links. */
  mailer: Mailer
  /** The shared worker pool for CPU-heavy work. */
  pool: WorkerPool
  engines: Engines
}

/** Every resource but the database handle (features get its query builder, `db`) and the mailer. */
export interface AppServices extends Omit<AppResources, 'database' | 'mailer'> {
  db: Db
  /** Background jobs of the catalogue (job-catalogue.ts, contracts only): `enqueue` queues one. */
  jobs: JobRunner<AppJobCatalogue>
  /** LISTEN/NOTIFY across the server processes sharing the database (server/realtime/). */
  notifier: Notifier
  /** The tables' change announcements (the realtime triggers), by table. */
  changes: ChangeFeed
  /** Every server-sent event stream opens through it: per-user and per-organisation caps. */
  streams: EventStreams
  limits: {
    /** Text extraction of uploads: PDF page limit and wall-clock seconds (issue 5). */
    extraction: { maxPdfPages: number; timeoutSeconds: number }
    /** The longest recording transcribed, in minutes (MAX_RECORDING_MINUTES). */
    maxRecordingMinutes: number
    /** Bytes an organisation may keep in its buckets (STORAGE_QUOTA_BYTES). */
    storageQuotaBytes: number
    /** Objects an organisation may keep in its buckets (STORAGE_QUOTA_OBJECTS). */
    storageQuotaObjects: number
    /** Largest organisation archive imported, in bytes (IMPORT_MAX_BYTES). */
    importMaxBytes: number
    /** Organisations one person may own (MAX_ORGANIZATIONS_PER_USER, decision 0109). */
    maxOrganizationsPerUser: number
    /** Tesseract languages of OCR, codes joined by '+' (OCR_LANGUAGES, decision 0053). */
    ocrLanguages: string
  }
}

/**
 * Wakes the job event streams of this process for changes made outside its runner: a job run by
 * another server process (a later multi-instance mode on PostgreSQL), crash recovery done by
 * another instance, a cancellation cascading from a deletion. It replaces the per-stream poll
 * (each stream re-read its job every 2 s, which let 1,000 streams of one member hold the server,
 * issue 29): one timer for the whole process, running only while jobs are watched, and one query
 * per look, by primary key, over the watched jobs only. A job whose `updated_at` differs from the
 * last look (or which is gone) is reported; every write that changes what a job shows sets
 * `updated_at`, heartbeats do not (decision 0036).
 */
import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/client'
import { asWorker } from './job-store'

export interface JobWatcherOptions {
  db: Db
  log: Pick<FastifyBaseLogger, 'warn'>
  /** Time between two looks (ms). */
  intervalMs: number
  /** Called for each watched job that changed (or was deleted) since the previous look. */
  onChange(jobId: string): void
}

interface Watched {
  /** Streams watching the job. */
  refs: number
  /** `updated_at` at the last look; undefined before the first, so the first look reports it. */
  version: string | undefined
}

const GONE = 'gone'

export class JobWatcher {
  private readonly watched = new Map<string, Watched>()
  private timer: NodeJS.Timeout | undefined
  private looking = false

  constructor(private readonly options: JobWatcherOptions) {}

  /** Watches `jobId` until the returned function is called (idempotent). */
  watch(jobId: string): () => void {
    const entry = this.watched.get(jobId) ?? { refs: 0, version: undefined }
    entry.refs += 1
    this.watched.set(jobId, entry)
    if (!this.timer) {
      this.timer = setInterval(() => void this.look(), this.options.intervalMs)
      this.timer.unref()
    }
    let released = false
    return () => {
      if (released) return
      released = true
      entry.refs -= 1
      if (entry.refs === 0) this.watched.delete(jobId)
      if (this.watched.size === 0) this.stop()
    }
  }

  /** Stops looking (the runner's stop); watching again restarts it. */
  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  private async look(): Promise<void> {
    if (this.looking || this.watched.size === 0) return
    this.looking = true
    const ids = [...this.watched.keys()]
    const changed: string[] = []
    try {
      const result = await asWorker(this.options.db, (tx) =>
        tx.execute(sql`
          SELECT id, updated_at::text AS version FROM jobs
          WHERE id IN (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`),
      )
      const rows = (
        Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
      ) as Array<{
        id: string
        version: string
      }>
      const versions = new Map(rows.map((r) => [r.id, r.version]))
      for (const id of ids) {
        const entry = this.watched.get(id)
        const version = versions.get(id) ?? GONE
        if (!entry || entry.version === version) continue
        entry.version = version
        changed.push(id)
      }
    } catch (error) {
      this.options.log.warn({ err: error }, 'looking for changed jobs failed')
    } finally {
      this.looking = false
    }
    for (const id of changed) this.options.onChange(id)
  }
}

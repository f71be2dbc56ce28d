/**
 * CSV import of entities as a background job ('entities-import'): the route streams the upload
 * into the blob store (importFileSink) and queues the job; the job streams it back through papaparse and writes
 * the rows in batches, each in a short transaction of its own, staged out of sight until the
 * last is written and then published at once (import-staging.ts, decision 0035). So the import
 * is all or nothing while no organisation waits for it: the first bad record fails the job with
 * its line number, and what was staged is swept. Every row gets the importing organisation (and
 * the chosen app, or none), whatever the file says; the job writes them under the app clause of
 * the credential that queued it (decision 0048), so one bound to an app writes in it only. A
 * job interrupted by a crash or a stop is retried from its stored file, after sweeping what the
 * interrupted attempt had staged.
 */
import { Readable } from 'node:stream'
import type { Db } from '../../db/client'
import type { BlobStore } from '../../blob/blob-store'
import { assertOrgKey, orgBlobKey } from '../../blob/blob-keys'
import type { FileSink } from '../../uploads/read-multipart'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError, notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { outsideAppScope } from '../../http/app-reach'
import { recordEvent } from '../../events/record-event'
import { isForeignKeyViolation, isRowSecurityViolation } from '../../db/constraint-violation'
import type { z } from 'zod'
import type { JobOfKind } from '../../jobs/job-service'
import { CancelledError } from '../../jobs/job-runner'
import type { JobContext, JobHandlerOf } from '../../jobs/define-job-contract'
import { entitiesImportJobContract } from '../../jobs/contracts/entities-import-job-contract'
import type { AppServices } from '../../services'
import type { ClaimedJob } from '../../jobs/job-store'
import { readHeader, readRecord, type CsvColumn, type ImportedEntity } from './csv'
import { csvRecords, CsvSyntaxError } from './csv-records'
import {
  DATA_TOO_LARGE,
  DEFAULT_ENTITY_TYPE,
  EntityName,
  EntityType,
  StorableEntityData,
  withinDataLimit,
} from './schemas'
import {
  abandonedImports,
  markStaging,
  nextTurn,
  publishImport,
  stageRows,
  sweepImport,
  type StagedCounts,
} from './import-staging'

export const IMPORT_JOB_KIND = entitiesImportJobContract.kind
/**
 * Rows per transaction: 500 rows took 0.3–0.4 s to write on PGlite on the loaded 2-core machine
 * here, so 200 take about 0.15 s, within the 0.2 s a transaction may hold the database
 * (decision 0035).
 */
const INSERT_BATCH = 200
/** Largest import file: 100 MiB. */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024
/** The input of an 'entities-import' job: the stored upload and the app imported into. */
export type ImportJobInput = z.output<typeof entitiesImportJobContract.input>

type ImportDeps = { db: Db; blobs: BlobStore }

/** An import file streamed into the blob store (by importFileSink), not yet queued. */
export interface StoredImportFile {
  blobKey: string
  fileName: string
  size: number
}

/**
 * The upload sink of an import (uploads/read-multipart.ts): streams the file into the blob store
 * under the organisation's imports folder; a refused upload deletes it again.
 */
export function importFileSink(blobs: BlobStore, orgId: string): FileSink<StoredImportFile> {
  return {
    async store(file) {
      const blobKey = orgBlobKey(orgId, 'imports', `${crypto.randomUUID()}.csv`)
      const size = await blobs.putStream(blobKey, file.chunks, 'text/csv')
      return { blobKey, fileName: file.fileName.slice(0, 200), size }
    },
    discard: (stored) => blobs.delete(stored.blobKey),
  }
}

/**
 * Queues the import of a stored file; resolves to the job, which will write as `principal`'s app
 * (its `appId`, if bound to one). The stored file is removed if queueing fails (400 `empty_csv`
 * for an empty file), and by the job when it ends.
 */
export async function startImport(
  deps: ImportDeps & { jobs: AppServices['jobs'] },
  principal: Principal,
  upload: StoredImportFile & { appId: string | null },
): Promise<JobOfKind<typeof entitiesImportJobContract>> {
  try {
    if (upload.size === 0) throw new AppError('empty_csv', 'No rows')
    const input: ImportJobInput = {
      blobKey: upload.blobKey,
      fileName: upload.fileName,
      size: upload.size,
      appId: upload.appId,
      queuedInApp: principal.appId ?? null,
    }
    return await withTenant(deps.db, principal, (tx) =>
      // The job's subject is the app imported into (none: organisation-wide), so an app's page
      // finds the imports running into it.
      deps.jobs.enqueue(tx, principal, IMPORT_JOB_KIND, input, {
        subjectId: upload.appId ?? undefined,
      }),
    )
  } catch (error) {
    await deps.blobs.delete(upload.blobKey)
    throw error
  }
}

/** An AppError naming the file line (1 = header) of a bad record. */
function badLine(line: number, message: string): AppError {
  return new AppError('import_failed', `Line ${line}: ${message} Nothing was imported.`)
}

/** Runs `read` (a header or record reader), naming `line` in the problem it throws. */
function atLine<T>(line: number, read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw badLine(line, (error as Error).message)
  }
}

/**
 * One imported entity checked against the same rules as the API (schemas.ts), with its name and
 * type cleaned as the API cleans them: the entity to stage, or what is wrong with it.
 */
function checkEntity(entity: ImportedEntity): { entity: ImportedEntity } | { problem: string } {
  const name = EntityName.safeParse(entity.name)
  if (!name.success) return { problem: `${name.error.issues[0]?.message ?? 'Bad name'}.` }
  const type = EntityType.safeParse(entity.type ?? DEFAULT_ENTITY_TYPE)
  if (!type.success) return { problem: `${type.error.issues[0]?.message ?? 'Bad type'}.` }
  const data = StorableEntityData.safeParse(entity.data)
  if (!data.success) return { problem: `${data.error.issues[0]?.message ?? 'Bad data'}.` }
  return { entity: { ...entity, name: name.data, type: type.data } }
}

/**
 * Parses the CSV `stream` (`input.size` bytes) and stages its records as import `jobId`'s, a
 * batch per transaction with a turn of the event loop between; returns the count and the
 * counters to publish. Lines are the file's physical lines (csvRecords), so a bad record is
 * found in an editor.
 */
async function stageStream(
  db: Db,
  principal: Principal,
  job: { jobId: string; input: ImportJobInput },
  stream: Readable,
  context: JobContext,
): Promise<{ count: number; counts: StagedCounts }> {
  const { input } = job
  let bytesRead = 0
  let columns: (CsvColumn | null)[] | undefined
  let batch: ImportedEntity[] = []
  let count = 0
  const counts: StagedCounts = new Map()
  const flush = async () => {
    if (batch.length === 0) return
    await stageRows(db, principal, { jobId: job.jobId, appId: input.appId }, batch, counts)
    count += batch.length
    batch = []
    context.progress(Math.min(0.99, bytesRead / Math.max(1, input.size)), `Imported ${count} rows`)
    await nextTurn()
  }
  try {
    for await (const { cells, line } of csvRecords(stream, (bytes) => (bytesRead += bytes))) {
      if (context.signal.aborted) throw context.signal.reason
      // One limit for every value, the API's data limit, checked before any is parsed.
      if (!cells.every(withinDataLimit)) throw badLine(line, `${DATA_TOO_LARGE}.`)
      if (!columns) {
        columns = atLine(line, () => readHeader(cells))
        continue
      }
      const header = columns
      const checked = checkEntity(atLine(line, () => readRecord(header, cells)))
      if ('problem' in checked) throw badLine(line, checked.problem)
      batch.push(checked.entity)
      if (batch.length >= INSERT_BATCH) await flush()
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw badLine(error.line, error.message)
    throw error
  }
  await flush()
  return { count, counts }
}

/**
 * Whether the job runner will run `job` again after `error` (outcomeOf in job-runner.ts): a stop
 * of the server, or an unexpected failure with attempts left. Its file is kept for that run.
 */
function willRetry(job: ClaimedJob, error: unknown, signal: AbortSignal): boolean {
  if (error instanceof AppError) return false
  if (signal.aborted) return !(signal.reason instanceof CancelledError)
  return job.attempts < job.maxAttempts
}

/**
 * The job handler of 'entities-import' jobs (contract:
 * server/jobs/contracts/entities-import-job-contract.ts).
 */
export function importJobHandler(deps: ImportDeps): JobHandlerOf<typeof entitiesImportJobContract> {
  return {
    async run(job, context) {
      const { input } = job
      // The organisation's, for its housekeeping (sweeping imports other jobs abandoned,
      // whatever their app); the rows of this import are written as the credential that queued
      // it, under its app's clause, so RLS refuses any write outside that app.
      const organisation: Principal = {
        orgId: job.orgId,
        userId: job.createdBy,
        role: 'admin',
        actorType: 'user',
      }
      const principal: Principal = { ...organisation, appId: input.queuedInApp }
      const target = { jobId: job.id, appId: input.appId }
      try {
        assertOrgKey(job.orgId, input.blobKey, 'imports')
        const file = await deps.blobs.getStream(input.blobKey)
        if (!file)
          throw new AppError('file_not_found', 'The uploaded file is gone; upload it again.')
        context.progress(0.01, 'Reading the file')
        // An earlier attempt of this job, cut short by a crash, may have staged rows; so may
        // an earlier import of the organisation that will not run again.
        await sweepImport(deps.db, principal, job.id)
        for (const abandoned of await abandonedImports(deps.db, organisation))
          if (abandoned !== job.id) await sweepImport(deps.db, organisation, abandoned)
        await markStaging(deps.db, principal, job.id)
        const { count, counts } = await stageStream(
          deps.db,
          principal,
          { jobId: job.id, input },
          file.stream,
          context,
        ).finally(() => file.stream.destroy())
        if (count === 0) throw new AppError('empty_csv', 'No rows')
        await withTenant(deps.db, principal, async (tx) => {
          await publishImport(tx, principal, target, counts)
          await recordAudit(tx, principal, 'entity.import', { type: 'entity', id: null }, { count })
          await recordEvent(
            tx,
            principal,
            'entities.imported',
            { count, fileName: input.fileName },
            input.appId,
          )
        })
        await deps.blobs.delete(input.blobKey)
        return { imported: count }
      } catch (thrown) {
        // A write outside the credential's app fails for good, with the route's problem.
        const error = isRowSecurityViolation(thrown) ? outsideAppScope() : thrown
        const retry = willRetry(job, error, context.signal)
        // A retry sweeps first anyway; a stopping server need not wait for the sweep.
        if (!retry) {
          await sweepImport(deps.db, principal, job.id)
          await deps.blobs.delete(input.blobKey)
        }
        if (isForeignKeyViolation(error, 'entities_app_fk')) throw notFound('App')
        throw error
      }
    },
  }
}

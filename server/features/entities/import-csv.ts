/**
 * CSV import of entities as a background job ('entities-import'): the route streams the upload
 * into the blob store and queues the job; the job streams it back through papaparse and inserts
 * the rows in batches inside ONE tenant transaction, so the import is all or nothing: the first
 * bad record fails the job with its line number and nothing is kept. Every row gets the
 * importing organisation (and the chosen app, or none), whatever the file says.
 */
import { Readable } from 'node:stream'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import type { BlobStore } from '../../blob/blob-store'
import { entities } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { enqueueJob, type Job } from '../../jobs/job-service'
import type { JobContext, JobHandler } from '../../jobs/job-runner'
import { readHeader, readRecord, type CsvColumn, type ImportedEntity } from './csv'
import { csvRecords, CsvSyntaxError } from './csv-records'
import { DEFAULT_ENTITY_TYPE, EntityName, EntityType, StorableEntityData } from './schemas'

export const IMPORT_JOB_KIND = 'entities-import'
/** Rows per INSERT statement. */
const INSERT_BATCH = 500
/** Largest import file: 100 MB. */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024

/** The input of an 'entities-import' job. */
export interface ImportJobInput {
  blobKey: string
  fileName: string
  size: number
  appId: string | null
}

type ImportDeps = { db: Db; blobs: BlobStore }

/**
 * Stores the uploaded file (`source`, streamed) and queues its import; resolves to the job. The
 * stored file is removed if queueing fails, and by the job when it ends.
 */
export async function startImport(
  deps: ImportDeps,
  principal: Principal,
  upload: { source: AsyncIterable<Uint8Array>; fileName: string; appId: string | null },
): Promise<Job> {
  const blobKey = `orgs/${principal.orgId}/imports/${crypto.randomUUID()}.csv`
  const size = await deps.blobs.putStream(blobKey, upload.source, 'text/csv')
  try {
    if (size === 0) throw new AppError('empty_csv', 400, 'No rows')
    const input: ImportJobInput = { blobKey, fileName: upload.fileName, size, appId: upload.appId }
    return await withTenant(deps.db, principal, (tx) =>
      // The job's subject is the app imported into (none: organisation-wide), so an app's page
      // finds the imports running into it.
      enqueueJob(tx, principal, {
        kind: IMPORT_JOB_KIND,
        subjectId: upload.appId ?? undefined,
        input,
        maxAttempts: 1,
      }),
    )
  } catch (error) {
    await deps.blobs.delete(blobKey)
    throw error
  }
}

/** An AppError naming the file line (1 = header) of a bad record. */
function badLine(line: number, message: string): AppError {
  return new AppError('import_failed', 400, `Line ${line}: ${message} Nothing was imported.`)
}

/** Runs `read` (a header or record reader), naming `line` in the problem it throws. */
function atLine<T>(line: number, read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw badLine(line, (error as Error).message)
  }
}

/** Validates one imported entity against the same rules as the API (schemas.ts). */
function checkEntity(entity: ImportedEntity): string | null {
  const name = EntityName.safeParse(entity.name)
  if (!name.success) return `${name.error.issues[0]?.message ?? 'Bad name'}.`
  const type = EntityType.safeParse(entity.type ?? DEFAULT_ENTITY_TYPE)
  if (!type.success) return `${type.error.issues[0]?.message ?? 'Bad type'}.`
  const data = StorableEntityData.safeParse(entity.data)
  if (!data.success) return `${data.error.issues[0]?.message ?? 'Bad data'}.`
  return null
}

/** Inserts one batch of rows into the importing organisation. */
async function insertBatch(
  tx: Tx,
  principal: Principal,
  appId: string | null,
  batch: ImportedEntity[],
) {
  await tx.insert(entities).values(
    batch.map((e) => ({
      orgId: principal.orgId,
      appId,
      name: e.name,
      type: e.type ?? DEFAULT_ENTITY_TYPE,
      data: e.data,
      ...(e.createdAt ? { createdAt: sql`${e.createdAt}::timestamptz` } : {}),
    })),
  )
}

/**
 * Parses the CSV `stream` (`size` bytes) and inserts its records in `tx`; returns the count.
 * Lines are the file's physical lines (csvRecords), so a bad record is found in an editor.
 */
async function importStream(
  tx: Tx,
  principal: Principal,
  input: ImportJobInput,
  stream: Readable,
  context: JobContext,
): Promise<number> {
  let bytesRead = 0
  let columns: (CsvColumn | null)[] | undefined
  let batch: ImportedEntity[] = []
  let count = 0
  const flush = async () => {
    if (batch.length === 0) return
    await insertBatch(tx, principal, input.appId, batch)
    count += batch.length
    batch = []
    context.progress(Math.min(0.99, bytesRead / Math.max(1, input.size)), `Imported ${count} rows`)
  }
  try {
    for await (const { cells, line } of csvRecords(stream, (bytes) => (bytesRead += bytes))) {
      if (context.signal.aborted) throw context.signal.reason
      if (!columns) {
        columns = atLine(line, () => readHeader(cells))
        continue
      }
      const header = columns
      const entity = atLine(line, () => readRecord(header, cells))
      const problem = checkEntity(entity)
      if (problem) throw badLine(line, problem)
      batch.push(entity)
      if (batch.length >= INSERT_BATCH) await flush()
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw badLine(error.line, error.message)
    throw error
  }
  await flush()
  return count
}

/** The job handler of 'entities-import' jobs. */
export function importJobHandler(deps: ImportDeps): JobHandler {
  return {
    kind: IMPORT_JOB_KIND,
    async run(job, context) {
      const input = job.input as ImportJobInput
      const principal: Principal = {
        orgId: job.orgId,
        userId: job.createdBy,
        role: 'admin',
        actorType: 'user',
      }
      try {
        const file = await deps.blobs.getStream(input.blobKey)
        if (!file)
          throw new AppError('file_not_found', 404, 'The uploaded file is gone; upload it again.')
        context.progress(0.01, 'Reading the file')
        const imported = await withTenant(deps.db, principal, async (tx) => {
          const count = await importStream(tx, principal, input, file.stream, context).finally(() =>
            file.stream.destroy(),
          )
          if (count === 0) throw new AppError('empty_csv', 400, 'No rows')
          await recordAudit(tx, principal, 'entity.import', { type: 'entity', id: null }, { count })
          await recordEvent(
            tx,
            principal,
            'entities.imported',
            { count, fileName: input.fileName },
            input.appId,
          )
          return count
        })
        return { imported }
      } catch (error) {
        if (isForeignKeyViolation(error, 'entities_app_fk')) throw notFound('App')
        throw error
      } finally {
        await deps.blobs.delete(input.blobKey)
      }
    },
  }
}

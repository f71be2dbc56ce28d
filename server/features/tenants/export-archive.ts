/**
 * Writes an organisation's archive (archive-format.ts) into the blob store as one streamed ZIP
 * (`archiver`, decision 0063): each table is read in keyset pages of EXPORT_PAGE rows, each page
 * in a short tenant transaction of its own, and flows through the ZIP writer into
 * `BlobStore.putStream`; stored files stream from the store into the archive one at a time. No
 * table, file or the archive is ever whole in memory. Every entry's SHA-256 is taken as it is
 * written and listed in manifest.json, the last entry.
 */
import { createHash } from 'node:crypto'
import { PassThrough, Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createRequire } from 'node:module'
import type { Archiver, ArchiverError, ArchiverOptions } from 'archiver'
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { withTenant, type TenantScope } from '../../db/tenant'
import type { BlobStore } from '../../blob/blob-store'
import { assertOrgKey } from '../../blob/blob-keys'
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  EXPORTED_TABLES,
  MEMBERS_ENTRY,
  tableEntry,
  type ExportedTable,
  type Manifest,
} from './archive-format'
import { orgMembers, sourceOrganisation } from './org-members'

/**
 * archiver 7's factory (`archiver('zip', options)`): the installed types, @types/archiver 8,
 * describe archiver 8's class API, which archiver 7 does not have.
 */
const createArchive = createRequire(import.meta.url)('archiver') as (
  format: 'zip',
  options: ArchiverOptions,
) => Archiver

/**
 * Rows per page (one short transaction each): an entities page of 500 rows reads in well under
 * the 0.2 s a transaction may hold embedded PGlite (decision 0035).
 */
export const EXPORT_PAGE = 500

/** What an export writes and how it reports. */
export interface ExportOptions {
  /** Keep passages' embedding vectors (large: 384 numbers each). */
  includeEmbeddings: boolean
  /** The engine, model and dimension of this server's embedder (Embedder.id). */
  embedderId: string
  lexdeskVersion: string
  /**
   * Tables written empty, without their rows or files (a clone without its buckets leaves out
   * `storage_buckets` and `storage_objects`); the archive keeps its full layout either way.
   */
  leaveOut?: readonly string[]
  signal: AbortSignal
  /** Called after each table and file folder with a short user-facing message. */
  progress(message: string): void
}

/** What was written: the archive's size in bytes and the counts of manifest.json. */
export interface ExportSummary {
  sizeBytes: number
  counts: Record<string, number>
}

/** A page's rows: the keyset bound of the next page and the row as JSON text. */
type PageRow = { k: string; row: string; file_key?: string | null }

/** The SQL of one page of `table` after key `after` (null: the first page). */
function pageSql(table: ExportedTable, omit: readonly string[], after: string | null): SQL {
  const key = sql.raw(`t.${table.key}`)
  const bound = after === null ? sql`true` : sql`${key} > ${after}::${sql.raw(table.keyType)}`
  // Rows staged by an entities CSV import that has not published are not the organisation's
  // yet (decision 0035).
  const inSight =
    table.name === 'entities'
      ? sql`AND (t.import_job_id IS NULL OR NOT EXISTS (SELECT FROM entity_imports i WHERE i.job_id = t.import_job_id))`
      : sql``
  const fileKey = table.filesIn ? sql`, t.file_key` : sql``
  const dropped = sql.join(
    ['org_id', ...omit].map((column) => sql`${column}`),
    sql`, `,
  )
  return sql`SELECT ${key}::text AS k, (to_jsonb(t) - ARRAY[${dropped}]::text[])::text AS row ${fileKey}
    FROM ${sql.raw(table.name)} t WHERE ${bound} ${inSight}
    ORDER BY ${key} LIMIT ${EXPORT_PAGE}`
}

/** Every row of `table` in key order, a page per tenant transaction. */
async function* tableRows(
  db: Db,
  scope: TenantScope,
  table: ExportedTable,
  omit: readonly string[],
): AsyncGenerator<PageRow[]> {
  let after: string | null = null
  for (;;) {
    const query = pageSql(table, omit, after)
    const rows = await withTenant(
      db,
      scope,
      async (tx) => ((await tx.execute(query)) as unknown as { rows: PageRow[] }).rows,
    )
    if (rows.length === 0) return
    yield rows
    after = rows[rows.length - 1]!.k
    if (rows.length < EXPORT_PAGE) return
  }
}

/** A row's NDJSON line: its columns, and `file` naming its stored file's entry (or null). */
function ndjsonLine(table: ExportedTable, row: PageRow): string {
  if (!table.filesIn) return `${row.row}\n`
  const file = row.file_key ? `${table.filesIn}/${row.k}` : null
  return `${row.row.slice(0, -1)}${row.row.length > 2 ? ',' : ''}"file":${JSON.stringify(file)}}\n`
}

/** A transform passing bytes through while taking their SHA-256. */
function hashing(): { stream: Transform; digest: () => string } {
  const hash = createHash('sha256')
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      done(null, chunk)
    },
  })
  return { stream, digest: () => hash.digest('hex') }
}

/** Where an archive goes: the blob store for the job, a file for the command line. */
export interface ArchiveTarget {
  /** Stores all of `source`; resolves to the bytes written; stores nothing if `source` fails. */
  write(source: AsyncIterable<Uint8Array>): Promise<number>
  /** Removes whatever was written. */
  remove(): Promise<void>
}

/** The target `key` of `blobs` (BlobStore.putStream). */
export function blobTarget(blobs: BlobStore, key: string): ArchiveTarget {
  return {
    write: (source) => blobs.putStream(key, source, 'application/zip'),
    remove: () => blobs.delete(key),
  }
}

/**
 * Writes the archive of organisation `scope.orgId` to `target`, reading its stored files from
 * `deps.blobs`. Throws the signal's reason when cancelled and any database or store failure;
 * in every failure the target is removed.
 */
export async function writeExportArchive(
  deps: { db: Db; blobs: BlobStore },
  scope: TenantScope,
  target: ArchiveTarget,
  options: ExportOptions,
): Promise<ExportSummary> {
  const archive = createArchive('zip', { zlib: { level: 6 } })
  // A PassThrough of our own between the writer and the store, so a failure reaches the store
  // as an error (archiver's abort() would end the stream as if it were complete).
  const out = new PassThrough()
  archive.pipe(out)
  const stored = target.write(out)
  // Keep a store failure from being unhandled while entries are still being written.
  stored.catch(() => undefined)
  let failure: Error | null = null
  archive.on('error', (error: ArchiverError) => (failure ??= error))
  archive.on('warning', (error: ArchiverError) => (failure ??= error))

  const entries: Record<string, string> = {}
  const counts: Record<string, number> = {}

  /** Appends one entry and resolves once the writer has taken all of it. */
  const append = async (name: string, source: Readable, store = false) => {
    options.signal.throwIfAborted()
    const hash = hashing()
    let settle: () => void = () => undefined
    const taken = new Promise<void>((resolve, reject) => {
      const onEntry = () => (settle(), resolve())
      const onError = (error: Error) => (settle(), reject(error))
      settle = () => {
        archive.off('entry', onEntry)
        archive.off('error', onError)
      }
      archive.on('entry', onEntry)
      archive.on('error', onError)
    })
    archive.append(hash.stream, { name, date: new Date(0), store })
    await Promise.all([pipeline(source, hash.stream), taken]).finally(settle)
    if (failure) throw failure
    entries[name] = hash.digest()
  }

  try {
    const source = await sourceOrganisation(deps.db, scope.orgId)
    let members = 0
    await append(
      MEMBERS_ENTRY,
      Readable.from(
        (async function* () {
          for await (const page of orgMembers(deps.db, scope.orgId, EXPORT_PAGE)) {
            members += page.length
            yield page.map((m) => `${JSON.stringify(m)}\n`).join('')
          }
        })(),
      ),
    )
    counts.members = members
    for (const table of EXPORTED_TABLES) {
      const omit =
        table.name === 'doc_chunks' && !options.includeEmbeddings
          ? [...table.omit, 'embedding']
          : table.omit
      const left = options.leaveOut?.includes(table.name) === true
      let rows = 0
      await append(
        tableEntry(table.name),
        Readable.from(
          (async function* () {
            if (left) return
            for await (const page of tableRows(deps.db, scope, table, omit)) {
              options.signal.throwIfAborted()
              rows += page.length
              yield page.map((row) => ndjsonLine(table, row)).join('')
            }
          })(),
        ),
      )
      counts[table.name] = rows
      options.progress(`Exported ${table.name.replaceAll('_', ' ')}`)
      if (table.filesIn) {
        counts[table.filesIn] = left ? 0 : await appendFiles(deps, scope, table, append)
        options.progress(`Exported ${table.filesIn}`)
      }
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      lexdeskVersion: options.lexdeskVersion,
      exportedAt: new Date().toISOString(),
      source,
      embeddings: {
        included: options.includeEmbeddings,
        embedder: options.includeEmbeddings ? options.embedderId : null,
      },
      counts,
      entries,
    }
    archive.append(JSON.stringify(manifest, null, 2), { name: 'manifest.json', date: new Date(0) })
    await archive.finalize()
    if (failure) throw failure
    const sizeBytes = await stored
    return { sizeBytes, counts }
  } catch (error) {
    out.destroy(error as Error)
    archive.abort()
    await stored.catch(() => undefined)
    await target.remove()
    throw error
  }
}

/** Appends the stored file of every row of `table` that has one; resolves to how many. */
async function appendFiles(
  deps: { db: Db; blobs: BlobStore },
  scope: TenantScope,
  table: ExportedTable,
  append: (name: string, source: Readable, store: boolean) => Promise<void>,
): Promise<number> {
  let files = 0
  for await (const page of tableRows(deps.db, scope, table, table.omit)) {
    for (const row of page) {
      if (!row.file_key) continue
      // A key read back from a row is checked to be the organisation's before it is opened.
      assertOrgKey(scope.orgId, row.file_key)
      const opened = await deps.blobs.getStream(row.file_key)
      // A row whose file is gone (the orphan walk's reverse case) exports without it; the
      // manifest's file count then says so.
      if (!opened) continue
      // Stored, not deflated: originals, audio and bucket objects are mostly compressed
      // formats already, and deflating them cost most of the export's time for nothing.
      await append(`${table.filesIn}/${row.k}`, opened.stream, true)
      files += 1
    }
  }
  return files
}

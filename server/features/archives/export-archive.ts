/**
 * Writes an organisation's archive (archive-format.ts) into the blob store as one streamed ZIP
 * (`archiver`, decision 0063): each table is read in keyset pages (pageRowsOf), each page in a
 * short tenant transaction of its own, and flows through the ZIP writer into
 * `BlobStore.putStream`; stored files stream from the store into the archive one at a time. The
 * pages are read ahead of the writer, up to READ_AHEAD_CHARS of text held (read-ahead.ts,
 * decision 0088), so the database works while the writer copies files. No table, file or the
 * archive is ever whole in memory. Every entry's SHA-256 is taken as it is written and listed in
 * manifest.json, the last entry.
 */
import { createHash } from 'node:crypto'
import { PassThrough, Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createRequire } from 'node:module'
import type { Archiver, ArchiverError, ArchiverOptions } from 'archiver'
import { sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { withTenantReads, type TenantScope } from '../../db/tenant'
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
import { joinChunks } from './join-chunks'
import { readAhead } from './read-ahead'

/**
 * archiver 7's factory (`archiver('zip', options)`): the installed types, @types/archiver 8,
 * describe archiver 8's class API, which archiver 7 does not have.
 */
const createArchive = createRequire(import.meta.url)('archiver') as (
  format: 'zip',
  options: ArchiverOptions,
) => Archiver

/**
 * Rows per page (one short transaction each): an entities page of 2,000 rows reads in about
 * 25 ms on embedded PGlite, well under the 0.2 s a transaction may hold it (decision 0035), and
 * each page costs a message to the database thread and back whatever its size (decision 0088).
 */
export const EXPORT_PAGE = 2000

/**
 * Rows per page of the tables whose rows hold whole texts (a document's content, an analysis's
 * result) or, with embeddings, vectors of 384 numbers: such a page stays a few MB.
 */
export const EXPORT_PAGE_OF_LARGE_ROWS = 100

/** The tables read in pages of EXPORT_PAGE_OF_LARGE_ROWS (doc_chunks only with embeddings). */
const LARGE_ROWS = new Set(['documents', 'analyses'])

/**
 * The text (characters) of pages read ahead and not yet written that stops the reading: 16 Mi
 * characters hold all the 100,000 entities of the data bench that a 200 MB file folder's copy
 * gives the database time to read, while the RSS growth target is 300 MB (decision 0088).
 */
export const READ_AHEAD_CHARS = 16 * 1024 * 1024

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

/** What every page query answers: its row count and the keyset bound of the next page. */
type Page = { n: number; k: string | null }

/** A page of a table as NDJSON: its lines, each ending in a newline (null when empty). */
type LinesPage = Page & { lines: string | null }

/** A page of a table's stored files: each row's key and the key of its file (rows with one). */
type FilesPage = Page & { files: { k: string; fileKey: string }[] }

/**
 * The rows of one page of `table` after key `after` (null: the first page), in key order, with
 * columns `key`, `k` (the key as text), `line` (the row's NDJSON line: its `columns`, and for a
 * table with files `file` naming its stored file's entry, or null) and `file_key`. Columns a
 * caller does not read are not computed (PostgreSQL drops them). The line is `row_to_json` of
 * the columns picked, not `to_jsonb` of the row less the others: no binary JSON is built and
 * taken apart again, which read the entities in about 40 % less time (decision 0088).
 */
function pageRows(
  table: ExportedTable,
  columns: readonly string[],
  rows: number,
  after: string | null,
): SQL {
  const key = sql.raw(`t.${table.key}`)
  const bound = after === null ? sql`true` : sql`${key} > ${after}::${sql.raw(table.keyType)}`
  // Rows staged by an entities CSV import that has not published are not the organisation's
  // yet (decision 0035).
  const inSight =
    table.name === 'entities'
      ? sql`AND (t.import_job_id IS NULL OR NOT EXISTS (SELECT FROM entity_imports i WHERE i.job_id = t.import_job_id))`
      : sql``
  const fields = columns.map((column) => sql`t.${sql.identifier(column)}`)
  if (table.filesIn)
    fields.push(sql`CASE WHEN t.file_key IS NULL THEN NULL
      ELSE ${`${table.filesIn}/`} || ${key}::text END AS file`)
  const fileKey = table.filesIn ? sql`t.file_key` : sql`NULL::text`
  return sql`SELECT ${key} AS key, ${key}::text AS k, row_to_json(c)::text || E'\n' AS line,
    ${fileKey} AS file_key
    FROM ${sql.raw(table.name)} t CROSS JOIN LATERAL (SELECT ${sql.join(fields, sql`, `)}) c
    WHERE ${bound} ${inSight}
    ORDER BY ${key} LIMIT ${rows}`
}

/**
 * The columns of each of `tables` in table order, as the catalogue has them (one query, no
 * tenant data): an exported line holds a row's columns but `org_id` and the table's omitted ones.
 */
async function columnsOf(db: Db, tables: readonly string[]): Promise<Map<string, string[]>> {
  const names = sql.join(
    tables.map((name) => sql`${name}`),
    sql`, `,
  )
  const { rows } = (await db.execute(sql`SELECT a.attrelid::regclass::text AS table,
      a.attname AS column
    FROM pg_attribute a
    WHERE a.attrelid = ANY(ARRAY[${names}]::regclass[]) AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attnum`)) as unknown as { rows: { table: string; column: string }[] }
  const columns = new Map<string, string[]>(tables.map((name) => [name, []]))
  for (const row of rows) columns.get(row.table)?.push(row.column)
  return columns
}

/**
 * A page as NDJSON text joined in the database: one value crosses from the database thread
 * instead of a row object per row, which was most of the export's time (decision 0080).
 */
const linesOf = (rows: SQL) => sql`SELECT count(*)::int AS n,
  (array_agg(k ORDER BY key DESC))[1] AS k, string_agg(line, '' ORDER BY key) AS lines
  FROM (${rows}) p`

/** A page's stored files: the rows' keys and file keys, without reading the rows' columns. */
const filesOf = (rows: SQL) => sql`SELECT count(*)::int AS n,
  (array_agg(k ORDER BY key DESC))[1] AS k,
  coalesce(jsonb_agg(jsonb_build_object('k', k, 'fileKey', file_key) ORDER BY key)
    FILTER (WHERE file_key IS NOT NULL), '[]') AS files
  FROM (${rows}) p`

/** The rows per page of `table` (EXPORT_PAGE, or fewer for large rows). */
function pageRowsOf(table: ExportedTable, omit: readonly string[]): number {
  const vectors = table.name === 'doc_chunks' && !omit.includes('embedding')
  return LARGE_ROWS.has(table.name) || vectors ? EXPORT_PAGE_OF_LARGE_ROWS : EXPORT_PAGE
}

/**
 * Every page of `table` in key order, as `summary` answers it, a tenant transaction each: one
 * message to the database thread with a reused plan (withTenantReads), which halved the time of
 * the entities' pages against a transaction of four messages planned each time (decision 0088).
 */
async function* tablePages<P extends Page>(
  db: Db,
  scope: TenantScope,
  table: ExportedTable,
  omit: readonly string[],
  columns: readonly string[],
  summary: (rows: SQL) => SQL,
): AsyncGenerator<P> {
  const rows = pageRowsOf(table, omit)
  let after: string | null = null
  for (;;) {
    const query = summary(pageRows(table, columns, rows, after))
    const [result] = await withTenantReads(db, scope, (tx) => [tx.execute(query)] as const, {
      reusePlans: true,
    })
    const [page] = (result as unknown as { rows: P[] }).rows
    if (!page || page.n === 0) return
    yield page
    after = page.k
    if (page.n < rows) return
  }
}

/**
 * A section of the archive read from the database: a table's rows, or the list of its files
 * (`files`); a section `left` out is written empty (ExportOptions.leaveOut).
 */
type Section = { table: ExportedTable; omit: readonly string[]; files: boolean; left: boolean }

/** What archiveReads yields: a page of the current section, or the end of that section. */
type SectionRead = LinesPage | FilesPage | 'end'

/**
 * Every database page the archive's sections need, in the archive's order, each section closed
 * by 'end' (an empty or left-out section is just 'end'). Throws the signal's reason when
 * cancelled, before reading another page.
 */
async function* archiveReads(
  db: Db,
  scope: TenantScope,
  sections: readonly Section[],
  signal: AbortSignal,
): AsyncGenerator<SectionRead> {
  const columns = await columnsOf(
    db,
    sections.map((section) => section.table.name),
  )
  for (const { table, omit, files, left } of sections) {
    if (left) {
      yield 'end'
      continue
    }
    const exported = (columns.get(table.name) ?? []).filter(
      (column) => column !== 'org_id' && !omit.includes(column),
    )
    const summary = files ? filesOf : linesOf
    const pages = tablePages<LinesPage | FilesPage>(db, scope, table, omit, exported, summary)
    for (;;) {
      signal.throwIfAborted()
      const next = await pages.next()
      if (next.done) break
      yield next.value
    }
    yield 'end'
  }
}

/** What a read holds in memory, in characters (READ_AHEAD_CHARS). */
const charsOf = (read: SectionRead) =>
  read === 'end' ? 0 : 'lines' in read ? (read.lines?.length ?? 0) : read.files.length * 100

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
  // Deflate's fastest level for the NDJSON tables (files are stored, appendFiles): on a small
  // machine the compressor shares the cores with the database thread (decision 0080).
  const archive = createArchive('zip', { zlib: { level: 1 } })
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
  const sections = EXPORTED_TABLES.flatMap((table): Section[] => {
    const omit =
      table.name === 'doc_chunks' && !options.includeEmbeddings
        ? [...table.omit, 'embedding']
        : table.omit
    const left = options.leaveOut?.includes(table.name) === true
    const rows = { table, omit, files: false, left }
    return table.filesIn ? [rows, { ...rows, files: true }] : [rows]
  })
  const reads = readAhead(
    archiveReads(deps.db, scope, sections, options.signal),
    charsOf,
    READ_AHEAD_CHARS,
  )
  /** The pages of the section being written, up to its end. */
  async function* sectionPages<P extends LinesPage | FilesPage>(): AsyncGenerator<P> {
    for (;;) {
      const read = await reads.next()
      if (read.done || read.value === 'end') return
      yield read.value as P
    }
  }

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
    for (const { table, files } of sections) {
      if (files && table.filesIn) {
        counts[table.filesIn] = await appendFiles(
          deps.blobs,
          scope,
          table.filesIn,
          sectionPages<FilesPage>(),
          append,
        )
        options.progress(`Exported ${table.filesIn}`)
        continue
      }
      let rows = 0
      await append(
        tableEntry(table.name),
        Readable.from(
          (async function* () {
            for await (const page of sectionPages<LinesPage>()) {
              options.signal.throwIfAborted()
              rows += page.n
              if (page.lines) yield page.lines
            }
          })(),
        ),
      )
      counts[table.name] = rows
      options.progress(`Exported ${table.name.replaceAll('_', ' ')}`)
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
  } finally {
    await reads.close()
  }
}

/**
 * Appends the stored file of every row listed in `pages` (a table's files section) under
 * `folder`; resolves to how many were appended.
 */
async function appendFiles(
  blobs: BlobStore,
  scope: TenantScope,
  folder: string,
  pages: AsyncIterable<FilesPage>,
  append: (name: string, source: Readable, store: boolean) => Promise<void>,
): Promise<number> {
  let files = 0
  for await (const page of pages) {
    for (const row of page.files) {
      // A key read back from a row is checked to be the organisation's before it is opened.
      assertOrgKey(scope.orgId, row.fileKey)
      const opened = await blobs.getStream(row.fileKey)
      // A row whose file is gone (the orphan walk's reverse case) exports without it; the
      // manifest's file count then says so.
      if (!opened) continue
      // Stored, not deflated: originals, audio and bucket objects are mostly compressed
      // formats already, and deflating them cost most of the export's time for nothing.
      const joined = Readable.from(joinChunks(opened.stream as AsyncIterable<Uint8Array>))
      try {
        await append(`${folder}/${row.k}`, joined, true)
      } finally {
        // A cancel or failure before the entry read the file would leave its handle open.
        opened.stream.destroy()
      }
      files += 1
    }
  }
  return files
}

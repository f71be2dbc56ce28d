/**
 * Stages a checked organisation archive (check-archive.ts) into a hidden staging organisation
 * (issue 27, decision 0063): each table's NDJSON is read line by line from its ZIP entry (no line
 * longer than MAX_LINE_BYTES: 413 `archive_line_too_long`, decision 0103) and written in batches
 * of at most IMPORT_BATCH rows and IMPORT_BATCH_BYTES bytes, each in a short tenant transaction of
 * its own (decision 0035's rule). Every row gets a new id, and every column naming another row
 * (its table's `refs`) takes the new id of that row of the archive; an id the archive does not
 * hold is never kept (a nullable reference becomes null, a row whose required parent is missing
 * is left out), so no imported row can name, probe or hang on another firm's row (decision 0103).
 * Ids inside JSON values (audit and event `meta`, citations) follow their rows. People: an import
 * adds nobody but its importer (decision 0103): the archive's members become unsent invitations
 * (publish-import.ts), and columns naming a person (`people`) are never pointed at this server's
 * users: they become null, and audit rows name their actor as `imported` (the archive's actor in
 * `meta.importedActor`). Only a clone (`keepPeople`, this server's own export of an organisation
 * its owner copies) matches people to this server's users by e-mail. Stored files stream from the
 * ZIP into the blob store under the keys of the organisation the import publishes into (the
 * staging organisation itself, or an existing one, decision 0071), typed from their first bytes as
 * an upload is (never by the archive's claim), each written only after the row naming it is
 * staged, so a sweep finds every file through the staged rows. Nothing here makes the rows
 * visible: the staging organisation has no member until the job publishes it (import-job.ts). A
 * bad line throws 422 `archive_invalid` naming the entry and line; the caller sweeps the staging
 * organisation.
 */
import { randomUUID } from 'node:crypto'
import type { Entry, ZipFile } from 'yauzl'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { apps, storageBuckets, voiceConsents } from '../../db/schema'
import type { BlobStore } from '../../blob/blob-store'
import { orgBlobKey } from '../../blob/blob-keys'
import { AppError } from '../../errors/app-error'
import { EXPORTED_TABLES, MEMBERS_ENTRY, tableEntry, type ExportedTable } from './archive-format'
import type { CheckedArchive } from './check-archive'
import { userIdByEmail } from './org-members'
import { z } from 'zod'
import { peekHead, sniffContentType } from '../../media/sniff-content-type'
import { sniffAudio } from '../../media/sniff-audio'
import { checkReviewBatch, ImportedReviews, REVIEW_TABLES } from './import-reviews'

/** Rows per staging transaction (decision 0035: 200 entities write in about 0.15 s). */
export const IMPORT_BATCH = 200

/**
 * Bytes of NDJSON per staging transaction: a batch is written once it holds IMPORT_BATCH rows or
 * this many bytes, so 200 long rows (documents carry their text) never sit in memory together.
 */
export const IMPORT_BATCH_BYTES = 8 * 1024 * 1024

/**
 * The longest NDJSON line an import reads (bytes, its newline excluded; decision 0103). The
 * longest line a Lexdesk export writes is a document row, whose `content` is the text of at most a
 * 25 MiB upload (MAX_UPLOAD_BYTES), a little longer once JSON-escaped; a longer line is refused
 * with 413 `archive_line_too_long` as soon as it passes this, before it is held whole.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024

/** Most members an archive may list (better-auth's default membership limit is 100). */
export const MAX_ARCHIVE_MEMBERS = 1000

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What staging needs besides the archive. */
export interface StageOptions {
  /** The hidden organisation the rows go into. */
  stagingOrgId: string
  /**
   * The existing organisation the rows will be published into (decision 0071): files take its
   * keys, its app slugs and bucket names are avoided, its settings and voice consents are kept;
   * absent for a new organisation (the staging one becomes it).
   */
  intoOrgId?: string
  /** Keep the archive's passage embeddings (same engine and dimension as this server's). */
  keepEmbeddings: boolean
  /**
   * A clone (decision 0072): the archive is this server's own export, written moments ago, of an
   * organisation whose owner copies it, so its members and user columns name this server's
   * people, matched by e-mail and kept. Never for an uploaded archive (decision 0103).
   */
  keepPeople?: boolean
  signal: AbortSignal
  progress(message: string): void
}

/** What was staged: rows per table, the people to invite or join, the documents to index. */
export interface StageSummary {
  counts: Record<string, number>
  /**
   * The archive's members as invitations the publication leaves unsent (an import), or those
   * without an account here (a clone); an owner's role is offered as admin, e-mails lower-cased.
   */
  invitations: { email: string; role: string }[]
  /** Imported documents (new ids), for re-indexing when embeddings were not kept. */
  documentIds: string[]
  /** Each imported document's new id by its id in the archive (a clone re-indexes some). */
  documentIdsByArchiveId: Map<string, string>
  /** A clone's members who have an account here: they join with their role. Empty for an import. */
  members: { userId: string; role: string }[]
  /** Imported reviews (new ids): the publication queues the fills they need (decision 0143). */
  reviewIds: string[]
}

const invalidLine = (entry: string, line: number, why: string) =>
  new AppError('archive_invalid', `${entry} line ${line}: ${why} Nothing was imported.`)

/** The writable columns of `table` (not generated, not identity, not org_id): name → nullable. */
async function writableColumns(db: Db, table: string): Promise<Map<string, boolean>> {
  const result = (await db.execute(sql`
    SELECT column_name, is_nullable FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}
      AND is_generated = 'NEVER' AND is_identity = 'NO' AND column_name <> 'org_id'`)) as unknown as {
    rows: { column_name: string; is_nullable: string }[]
  }
  return new Map(result.rows.map((r) => [r.column_name, r.is_nullable === 'YES']))
}

/**
 * The lines of a ZIP entry named `name`, numbered from 1 (empty ones skipped), each with its
 * length in bytes. Reads the inflated bytes as they come and splits them on `\n` itself (a
 * trailing `\r` is dropped), holding at most `maxLineBytes` of one line: a longer line throws 413
 * `archive_line_too_long` naming the entry and line before more of it is read.
 */
export async function* entryLines(
  zip: ZipFile,
  entry: Entry,
  name: string,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<[number, string, number]> {
  const stream = await zip.openReadStreamPromise(entry)
  let pieces: Buffer[] = []
  let held = 0
  let n = 0
  const line = (): [number, string, number] | null => {
    n += 1
    let bytes = Buffer.concat(pieces, held)
    pieces = []
    held = 0
    if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1)
    return bytes.length > 0 ? [n, bytes.toString('utf8'), bytes.length] : null
  }
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let start = 0; start < chunk.length;) {
        const end = chunk.indexOf(0x0a, start)
        const piece = chunk.subarray(start, end === -1 ? chunk.length : end)
        held += piece.length
        if (held > maxLineBytes)
          throw new AppError(
            'archive_line_too_long',
            `${name} line ${n + 1} is longer than ${maxLineBytes} bytes, the most an import reads in one line. Nothing was imported.`,
          )
        if (piece.length > 0) pieces.push(piece)
        if (end === -1) break
        const next = line()
        if (next) yield next
        start = end + 1
      }
    }
    if (held > 0) {
      const last = line()
      if (last) yield last
    }
  } finally {
    stream.destroy()
  }
}

/** A parsed NDJSON object, or the line's refusal. */
function parseLine(entry: string, n: number, line: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw invalidLine(entry, n, 'not valid JSON.')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidLine(entry, n, 'not a JSON object.')
  return value as Record<string, unknown>
}

/** The extension of a recording's stored file, from its media type. */
function audioExtension(mime: unknown): string {
  const sub = typeof mime === 'string' ? (mime.split('/')[1] ?? '') : ''
  return /^[a-z0-9]{1,10}$/.test(sub) ? sub : 'bin'
}

/**
 * Stages every table of `checked` from `zip` into `options.stagingOrgId`; resolves to what was
 * staged. Throws the archive's refusal (422 `archive_invalid`, 413 `archive_line_too_long`), a
 * store or database failure, or the signal's reason; the caller sweeps the staging organisation.
 */
export async function stageArchive(
  deps: { db: Db; blobs: BlobStore },
  zip: ZipFile,
  checked: CheckedArchive,
  options: StageOptions,
): Promise<StageSummary> {
  const people = await readMembers(deps.db, zip, checked, options.keepPeople ?? false)
  const taken = options.intoOrgId ? await takenIn(deps.db, options.intoOrgId) : emptyTaken()
  const ids = new ArchiveIds()
  const reviews = new ImportedReviews()
  const keepPeople = options.keepPeople ?? false
  const person = (v: unknown) =>
    keepPeople && typeof v === 'string' ? (people.users.get(v) ?? null) : null
  const counts: Record<string, number> = {}
  const documentIds: string[] = []
  const documentIdsByArchiveId = new Map<string, string>()
  const scope = { orgId: options.stagingOrgId }
  const filesOrgId = options.intoOrgId ?? options.stagingOrgId
  for (const table of EXPORTED_TABLES) {
    const name = tableEntry(table.name)
    const entry = checked.entries.get(name)
    // An existing organisation keeps its own settings (decision 0071).
    if (!entry || (options.intoOrgId && table.name === 'org_settings')) continue
    const columns = await writableColumns(deps.db, table.name)
    let batch: { line: number; row: Record<string, unknown> }[] = []
    let batchBytes = 0
    let rows = 0
    const flush = async () => {
      if (batch.length === 0) return
      options.signal.throwIfAborted()
      if (REVIEW_TABLES.has(table.name)) {
        const refused = await checkReviewBatch(deps.db, scope.orgId, table.name, batch)
        if (refused) throw invalidLine(name, refused.line, refused.why)
      }
      await insertBatch(deps.db, scope, table.name, name, batch)
      rows += batch.length
      batch = []
      batchBytes = 0
      // A turn of the event loop between batches, so waiting requests take the database.
      await new Promise((resolve) => setImmediate(resolve))
    }
    const context = { columns, ids, people, taken, name, options }
    for await (const [n, line, bytes] of entryLines(zip, entry, name)) {
      const row = parseLine(name, n, line)
      const mapped = remapRow(table, row, { ...context, n })
      if (!mapped) continue
      if (REVIEW_TABLES.has(table.name)) {
        const why = reviews.apply(table.name, row, mapped, person, (archiveId, fresh) =>
          ids.replace(table.name, archiveId, fresh),
        )
        if (why) throw invalidLine(name, n, why)
      }
      if (table.name === 'documents') {
        documentIds.push(mapped.id as string)
        documentIdsByArchiveId.set(String(row.id), mapped.id as string)
      }
      batch.push({ line: n, row: mapped })
      batchBytes += bytes
      if (table.filesIn && typeof row.file === 'string') {
        const entryOfFile = fileEntry(checked, table, row.file, { name, n })
        const stream = await zip.openReadStreamPromise(entryOfFile)
        try {
          const { head, all } = await peekHead(stream)
          setFileType(table, mapped, await sniffedFileType(table, head, { name, n }))
          mapped.file_key = fileKey(table, mapped, filesOrgId)
          // The row first: a sweep finds the file through it, even after a crash mid-write.
          await flush()
          await deps.blobs.putStream(mapped.file_key as string, all, fileType(mapped))
        } finally {
          stream.destroy()
        }
      } else if (batch.length >= IMPORT_BATCH || batchBytes >= IMPORT_BATCH_BYTES) await flush()
    }
    await flush()
    counts[table.name] = rows
    options.progress(`Imported ${table.name.replaceAll('_', ' ')}`)
  }
  return {
    counts,
    invitations: people.invitations,
    documentIds,
    documentIdsByArchiveId,
    members: people.members,
    reviewIds: reviews.reviewIds,
  }
}

/**
 * The archive's row ids and their new ones, by table. A row's reference looks its parent up in
 * the parent's table only; JSON values and `*` references (an audit row's target) in any table.
 */
class ArchiveIds {
  private readonly byTable = new Map<string, Map<string, string>>()
  /** Ids an audit row names that the archive does not hold (a deleted row's): a fresh id each. */
  private readonly elsewhere = new Map<string, string>()

  /** Records `archiveId` of `table`; its new id. Throws if the archive used it before. */
  add(table: string, archiveId: string): string | null {
    if (this.any(archiveId) !== undefined) return null
    let ids = this.byTable.get(table)
    if (!ids) this.byTable.set(table, (ids = new Map()))
    const fresh = randomUUID()
    ids.set(archiveId, fresh)
    return fresh
  }

  /** Makes `fresh` the new id of `archiveId` of `table` (a cell's, derived from its row and column). */
  replace(table: string, archiveId: string, fresh: string): void {
    this.byTable.get(table)?.set(archiveId, fresh)
  }

  /** The new id of `archiveId` in `table` (`*`: any table), or undefined. */
  of(table: string, archiveId: string): string | undefined {
    return table === '*' ? this.any(archiveId) : this.byTable.get(table)?.get(archiveId)
  }

  /** The new id of `archiveId` in any table, or undefined. */
  any(archiveId: string): string | undefined {
    for (const ids of this.byTable.values()) {
      const found = ids.get(archiveId)
      if (found !== undefined) return found
    }
    return undefined
  }

  /**
   * A stand-in for an id the archive names but does not hold (an audit entry's deleted target):
   * the same fresh id each time it is named, so entries about one row stay together, and never
   * an id of this server's.
   */
  standIn(archiveId: string): string {
    let fresh = this.elsewhere.get(archiveId)
    if (fresh === undefined) this.elsewhere.set(archiveId, (fresh = randomUUID()))
    return fresh
  }
}

/** Names the target organisation already uses, which imported rows must not take. */
interface Taken {
  appSlugs: Set<string>
  bucketNames: Set<string>
  /** Users who already acknowledged voice recording there (one consent per person). */
  consentUsers: Set<string>
}

const emptyTaken = (): Taken => ({
  appSlugs: new Set(),
  bucketNames: new Set(),
  consentUsers: new Set(),
})

/** What `orgId` already holds under a unique index (read under its RLS). */
function takenIn(db: Db, orgId: string): Promise<Taken> {
  return withTenant(db, { orgId }, async (tx) => ({
    appSlugs: new Set((await tx.select({ v: apps.slug }).from(apps)).map((r) => r.v)),
    bucketNames: new Set(
      (await tx.select({ v: storageBuckets.name }).from(storageBuckets)).map((r) => r.v),
    ),
    consentUsers: new Set(
      (await tx.select({ v: voiceConsents.userId }).from(voiceConsents)).map((r) => r.v),
    ),
  }))
}

/**
 * `name` if free in `taken`, else `name-imported`, `name-imported-2`, …, the base shortened so
 * the result fits `maxLength` (an app slug 60, a bucket name 63: their routes' rules); the name
 * chosen joins `taken`.
 */
function unusedName(name: string, taken: Set<string>, maxLength: number): string {
  for (let n = 0; ; n++) {
    const suffix = n === 0 ? '' : n === 1 ? '-imported' : `-imported-${n}`
    const base = suffix ? name.slice(0, maxLength - suffix.length).replace(/-+$/, '') : name
    const candidate = `${base}${suffix}`
    if (!taken.has(candidate)) {
      taken.add(candidate)
      return candidate
    }
  }
}

/**
 * `value` with every string equal to an imported row's archive id (or, in a clone, an archive
 * member's user id) replaced by its new one, at any depth, object keys included: audit and event
 * `meta`, citations and entity data name rows by id. Ids are random UUIDs (or better-auth's random
 * ids), so an equal string is that row. Other strings are data and stay as they are: nothing reads
 * a row through them but a tenant read, which row-level security keeps to the organisation.
 */
function remapJson(value: unknown, ids: ArchiveIds, users: Map<string, string>): unknown {
  if (typeof value === 'string') return ids.any(value) ?? users.get(value) ?? value
  if (Array.isArray(value)) return value.map((v) => remapJson(v, ids, users))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        ids.any(k) ?? users.get(k) ?? k,
        remapJson(v, ids, users),
      ]),
    )
  return value
}

/** Whether `value` is a plain JSON object. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The row with new ids and its people resolved, or null for a row left out: a voice consent of
 * nobody here (or of someone who already acknowledged in the target), or a row whose required
 * parent the archive does not hold (decision 0103).
 */
function remapRow(
  table: ExportedTable,
  row: Record<string, unknown>,
  ctx: {
    columns: Map<string, boolean>
    ids: ArchiveIds
    people: ArchivePeople
    taken: Taken
    name: string
    n: number
    options: StageOptions
  },
): Record<string, unknown> | null {
  const out: Record<string, unknown> = {}
  const keepPeople = ctx.options.keepPeople ?? false
  for (const [column, value] of Object.entries(row)) {
    if (column === 'file' && table.filesIn) continue
    // bigint keys (events) are the identity of this server's table: a new one is drawn.
    if (column === table.key && table.keyType === 'bigint') continue
    if (!ctx.columns.has(column))
      throw invalidLine(
        ctx.name,
        ctx.n,
        `"${column.slice(0, 100)}" is not a column of ${table.name}.`,
      )
    // What an export leaves out is this server's to set (blob keys, staging marks, job ids),
    // never an archive's: a file key from an archive could name another firm's file.
    if (table.omit.includes(column)) continue
    if (column === 'embedding' && !ctx.options.keepEmbeddings) continue
    if (table.people.includes(column)) {
      out[column] =
        keepPeople && typeof value === 'string' ? (ctx.people.users.get(value) ?? null) : null
      continue
    }
    if (column === table.key && table.keyType === 'uuid') {
      if (typeof value !== 'string' || !UUID.test(value))
        throw invalidLine(ctx.name, ctx.n, `"${column}" is not a UUID.`)
      const fresh = ctx.ids.add(table.name, value)
      if (!fresh) throw invalidLine(ctx.name, ctx.n, `id ${value} appears twice.`)
      out[column] = fresh
      continue
    }
    const parent = table.refs[column]
    if (parent !== undefined) {
      const found = typeof value === 'string' ? ctx.ids.of(parent, value) : undefined
      if (found !== undefined || value === null) out[column] = found ?? null
      // An audit entry's target may be gone (a deleted document): it keeps a stand-in.
      else if (parent === '*') out[column] = ctx.ids.standIn(String(value))
      // Never an id the archive does not hold: it could be another firm's row.
      else if (ctx.columns.get(column)) out[column] = null
      else return null
      continue
    }
    out[column] =
      isObject(value) || Array.isArray(value) ? remapJson(value, ctx.ids, ctx.people.users) : value
  }
  if (table.keyType === 'uuid' && out[table.key] === undefined)
    throw invalidLine(ctx.name, ctx.n, `"${table.key}" is missing.`)
  if (table.name === 'audit_logs' && !keepPeople) importedActor(row, out, ctx.people)
  // A consent belongs to a person: one whose account is not on this server has given none here,
  // and one who has already acknowledged in the target keeps that acknowledgement.
  if (table.name === 'voice_consents')
    return out.user_id === null || ctx.taken.consentUsers.has(out.user_id as string) ? null : out
  // Names unique in an organisation take a suffix when the target uses them (decision 0071).
  if (table.name === 'apps' && typeof out.slug === 'string')
    out.slug = unusedName(out.slug, ctx.taken.appSlugs, 60)
  if (table.name === 'storage_buckets' && typeof out.name === 'string')
    out.name = unusedName(out.name, ctx.taken.bucketNames, 63)
  return out
}

/**
 * Names an imported audit row's actor as imported (decision 0103): `actor_type` 'imported', no
 * actor or credential of this server, and who acted on the source in `meta.importedActor`
 * (`type`, `id` and `credentialId` as the archive had them, and the member's `email` when the
 * archive lists one), so the history stays readable without pointing at a live user.
 */
function importedActor(
  row: Record<string, unknown>,
  out: Record<string, unknown>,
  people: ArchivePeople,
): void {
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : null)
  const id = text(row.actor_id)
  out.meta = {
    ...(isObject(out.meta) ? out.meta : {}),
    importedActor: {
      type: text(row.actor_type),
      id,
      credentialId: text(row.credential_id),
      email: (id && people.emails.get(id)) ?? null,
    },
  }
  out.actor_type = 'imported'
  out.actor_id = null
  out.credential_id = null
}

/** The archive entry of a row's `file`; refuses a file outside its table's folder or missing. */
function fileEntry(
  checked: CheckedArchive,
  table: ExportedTable,
  file: string,
  at: { name: string; n: number },
): Entry {
  const entry = checked.entries.get(file)
  if (!entry || !file.startsWith(`${table.filesIn}/`))
    throw invalidLine(
      at.name,
      at.n,
      `its file ${JSON.stringify(file.slice(0, 200))} is not in the archive.`,
    )
  return entry
}

/** The store key of an imported row's file under `orgId`, where its feature keeps such files. */
function fileKey(table: ExportedTable, row: Record<string, unknown>, orgId: string): string {
  const id = row.id as string
  if (table.name === 'documents') return orgBlobKey(orgId, 'documents', id, 'original')
  if (table.name === 'recordings')
    return orgBlobKey(
      orgId,
      'voice-recordings',
      typeof row.user_id === 'string' ? row.user_id : 'imported',
      `${id}.${audioExtension(row.mime_type)}`,
    )
  return orgBlobKey(orgId, 'buckets', row.bucket_id as string, id)
}

/** The media type a row gives its file (documents and recordings `mime_type`, objects `content_type`). */
function fileType(row: Record<string, unknown>): string {
  return typeof row.mime_type === 'string'
    ? row.mime_type
    : typeof row.content_type === 'string'
      ? row.content_type
      : 'application/octet-stream'
}

/** Sets the media type column of `table`'s row (objects `content_type`, else `mime_type`). */
function setFileType(table: ExportedTable, row: Record<string, unknown>, type: string): void {
  row[table.name === 'storage_objects' ? 'content_type' : 'mime_type'] = type
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

/**
 * The media type of an imported row's file, told from `head` (its first SNIFF_BYTES) as its
 * feature's upload tells it, never taken from the archive (house rule 13: an archive is an
 * upload). An object: sniffContentType. A recording: its sniffAudio type, else
 * `application/octet-stream` (as getRecordingAudio serves a file that is not allowed audio). A
 * document: PDF, DOCX or plain text, the types an upload stores (a DOCX whose first bytes show
 * only a ZIP counts as DOCX); any other file is refused, 422 `archive_invalid` naming `at`.
 */
async function sniffedFileType(
  table: ExportedTable,
  head: Uint8Array,
  at: { name: string; n: number },
): Promise<string> {
  if (table.name === 'recordings')
    return (await sniffAudio(head).catch(() => null))?.mime ?? 'application/octet-stream'
  const sniffed = await sniffContentType(head)
  if (table.name !== 'documents') return sniffed
  if (sniffed === 'application/pdf') return sniffed
  if (sniffed === DOCX || sniffed === 'application/zip') return DOCX
  if (sniffed.startsWith('text/plain')) return 'text/plain'
  throw invalidLine(at.name, at.n, 'its file is not a PDF, DOCX or plain-text file.')
}

/**
 * Inserts a batch in one tenant transaction; a row the database refuses is found by inserting
 * the batch's rows one at a time, and named by its line.
 */
async function insertBatch(
  db: Db,
  scope: { orgId: string },
  table: string,
  entry: string,
  batch: { line: number; row: Record<string, unknown> }[],
): Promise<void> {
  const insert = (rows: Record<string, unknown>[]) => {
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
    const list = sql.raw(columns.map((c) => `"${c}"`).join(', '))
    return withTenant(db, scope, (tx) =>
      tx.execute(sql`INSERT INTO ${sql.raw(table)} (org_id, ${list})
        SELECT ${scope.orgId}, ${list} FROM jsonb_populate_recordset(NULL::${sql.raw(table)}, ${JSON.stringify(rows)}::jsonb)`),
    )
  }
  try {
    await insert(batch.map((b) => b.row))
  } catch {
    for (const { line, row } of batch) {
      try {
        await insert([row])
      } catch (error) {
        const why = (error as { message?: string }).message?.split('\n')[0]?.slice(0, 200)
        throw invalidLine(entry, line, `refused by the ${table} table (${why ?? 'invalid row'}).`)
      }
    }
  }
}

/** The archive's people: what staging writes of them and what publication makes of them. */
interface ArchivePeople {
  /** A clone's archive user id → this server's (empty for an import: nobody is matched). */
  users: Map<string, string>
  /** Archive user id → e-mail, naming imported audit actors. */
  emails: Map<string, string>
  invitations: StageSummary['invitations']
  members: StageSummary['members']
}

const MemberLine = z.object({
  user_id: z.string().min(1).max(200),
  email: z.email().max(320),
  role: z.string().max(50),
})

/**
 * The archive's members (at most MAX_ARCHIVE_MEMBERS, one invitation per e-mail). An import looks
 * none of them up (whether an address has an account here is no business of an archive's): each
 * becomes an invitation, an owner offered as admin. A clone (`keepPeople`) matches them to this
 * server's users by e-mail (case-insensitive): they join with their role, the rest are invited.
 */
async function readMembers(
  db: Db,
  zip: ZipFile,
  checked: CheckedArchive,
  keepPeople: boolean,
): Promise<ArchivePeople> {
  const people: ArchivePeople = {
    users: new Map(),
    emails: new Map(),
    invitations: [],
    members: [],
  }
  const entry = checked.entries.get(MEMBERS_ENTRY)
  if (!entry) return people
  const invited = new Set<string>()
  let count = 0
  for await (const [n, line] of entryLines(zip, entry, MEMBERS_ENTRY)) {
    if (++count > MAX_ARCHIVE_MEMBERS)
      throw invalidLine(MEMBERS_ENTRY, n, `more than ${MAX_ARCHIVE_MEMBERS} members.`)
    const parsed = MemberLine.safeParse(parseLine(MEMBERS_ENTRY, n, line))
    if (!parsed.success)
      throw invalidLine(MEMBERS_ENTRY, n, 'a member needs user_id, a valid email and role.')
    const m = parsed.data
    const email = m.email.toLowerCase()
    const role = ['owner', 'admin', 'member'].includes(m.role) ? m.role : 'member'
    people.emails.set(m.user_id, email)
    const local = keepPeople ? await userIdByEmail(db, email) : undefined
    if (local) {
      people.users.set(m.user_id, local)
      people.members.push({ userId: local, role })
    } else if (!invited.has(email)) {
      invited.add(email)
      people.invitations.push({ email, role: role === 'owner' ? 'admin' : role })
    }
  }
  return people
}

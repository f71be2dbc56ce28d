/**
 * Stages a checked organisation archive (check-archive.ts) into a hidden staging organisation
 * (issue 27, decision 0063): each table's NDJSON is read line by line from its ZIP entry and
 * written in batches of IMPORT_BATCH rows, each in a short tenant transaction of its own
 * (decision 0035's rule); every row gets a new id (references to rows read before it follow),
 * user columns are matched to this server's users by the archive's member e-mails (unknown
 * people: null), ids inside JSON values (audit and event `meta`, citations) follow their rows,
 * and stored files stream from the ZIP into the blob store under the keys of the organisation
 * the import publishes into (the staging organisation itself, or an existing one, decision
 * 0071), typed from their first bytes as an upload is (never by the archive's claim), each
 * written only after the row naming it is staged, so a sweep finds every file
 * through the staged rows. Nothing here makes the rows visible: the staging organisation has
 * no member until the job publishes it (import-job.ts). A bad line throws 422
 * `archive_invalid` naming the entry and line; the caller sweeps the staging organisation.
 */
import { randomUUID } from 'node:crypto'
import { createInterface } from 'node:readline'
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
import { peekHead, sniffContentType } from '../../http/sniff-content-type'
import { sniffAudio } from '../../ai/speech/sniff-audio'

/** Rows per staging transaction (decision 0035: 200 entities write in about 0.15 s). */
export const IMPORT_BATCH = 200

/** Columns naming a user (better-auth `user.id`): matched by e-mail, never copied. */
const USER_COLUMNS = new Set(['created_by', 'updated_by', 'actor_id', 'user_id'])
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
  signal: AbortSignal
  progress(message: string): void
}

/** What was staged: rows per table, files, pending invitations and the documents to index. */
export interface StageSummary {
  counts: Record<string, number>
  /** Archive members with no account here: invited (pending) when the import publishes. */
  invitations: { email: string; role: string }[]
  /** Imported documents (new ids), for re-indexing when embeddings were not kept. */
  documentIds: string[]
  /** Archive members who have an account here: they join with their role. */
  members: { userId: string; role: string }[]
}

const invalidLine = (entry: string, line: number, why: string) =>
  new AppError('archive_invalid', `${entry} line ${line}: ${why} Nothing was imported.`)

/** The writable columns of `table` (not generated, not identity, not org_id). */
async function writableColumns(db: Db, table: string): Promise<Set<string>> {
  const result = (await db.execute(sql`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}
      AND is_generated = 'NEVER' AND is_identity = 'NO' AND column_name <> 'org_id'`)) as unknown as {
    rows: { column_name: string }[]
  }
  return new Set(result.rows.map((r) => r.column_name))
}

/** The lines of a ZIP entry, numbered from 1. */
async function* entryLines(zip: ZipFile, entry: Entry): AsyncGenerator<[number, string]> {
  const lines = createInterface({
    input: await zip.openReadStreamPromise(entry),
    crlfDelay: Infinity,
  })
  let n = 0
  for await (const line of lines) {
    n += 1
    if (line.length > 0) yield [n, line]
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
 * Stages every table of `checked` from `zip` into `options.stagingOrgId`. `users` maps the
 * archive's user ids to this server's (matched by e-mail by the caller's member pass).
 */
export async function stageArchive(
  deps: { db: Db; blobs: BlobStore },
  zip: ZipFile,
  checked: CheckedArchive,
  options: StageOptions,
): Promise<StageSummary> {
  const { users, invitations, members } = await matchMembers(deps.db, zip, checked)
  const taken = options.intoOrgId ? await takenIn(deps.db, options.intoOrgId) : emptyTaken()
  const ids = new Map<string, string>()
  const counts: Record<string, number> = {}
  const documentIds: string[] = []
  const scope = { orgId: options.stagingOrgId }
  const filesOrgId = options.intoOrgId ?? options.stagingOrgId
  for (const table of EXPORTED_TABLES) {
    const name = tableEntry(table.name)
    const entry = checked.entries.get(name)
    // An existing organisation keeps its own settings (decision 0071).
    if (!entry || (options.intoOrgId && table.name === 'org_settings')) continue
    const columns = await writableColumns(deps.db, table.name)
    let batch: { line: number; row: Record<string, unknown> }[] = []
    let rows = 0
    const flush = async () => {
      if (batch.length === 0) return
      options.signal.throwIfAborted()
      await insertBatch(deps.db, scope, table.name, name, batch)
      rows += batch.length
      batch = []
      // A turn of the event loop between batches, so waiting requests take the database.
      await new Promise((resolve) => setImmediate(resolve))
    }
    for await (const [n, line] of entryLines(zip, entry)) {
      const row = parseLine(name, n, line)
      const mapped = remapRow(table, row, { columns, ids, users, taken, name, n, options })
      if (!mapped) continue
      if (table.name === 'documents') documentIds.push(mapped.id as string)
      batch.push({ line: n, row: mapped })
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
      } else if (batch.length >= IMPORT_BATCH) await flush()
    }
    await flush()
    counts[table.name] = rows
    options.progress(`Imported ${table.name.replaceAll('_', ' ')}`)
  }
  return { counts, invitations, documentIds, members }
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
 * `value` with every string equal to an imported row's archive id (or an archive member's user
 * id) replaced by its new one, at any depth, object keys included: audit and event `meta`,
 * citations and entity data name rows by id. Ids are random UUIDs (or better-auth's random
 * ids), so an equal string is that row.
 */
function remapJson(value: unknown, ids: Map<string, string>, users: Map<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? users.get(value) ?? value
  if (Array.isArray(value)) return value.map((v) => remapJson(v, ids, users))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        ids.get(k) ?? users.get(k) ?? k,
        remapJson(v, ids, users),
      ]),
    )
  return value
}

/** The row with new ids and matched users, or null for a row left out (see the comments). */
function remapRow(
  table: ExportedTable,
  row: Record<string, unknown>,
  ctx: {
    columns: Set<string>
    ids: Map<string, string>
    users: Map<string, string>
    taken: Taken
    name: string
    n: number
    options: StageOptions
  },
): Record<string, unknown> | null {
  const out: Record<string, unknown> = {}
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
    if (column === 'embedding' && !ctx.options.keepEmbeddings) continue
    if (USER_COLUMNS.has(column)) {
      out[column] = typeof value === 'string' ? (ctx.users.get(value) ?? null) : null
      continue
    }
    if (column === table.key && table.keyType === 'uuid') {
      if (typeof value !== 'string' || !UUID.test(value))
        throw invalidLine(ctx.name, ctx.n, `"${column}" is not a UUID.`)
      if (ctx.ids.has(value)) throw invalidLine(ctx.name, ctx.n, `id ${value} appears twice.`)
      const fresh = randomUUID()
      ctx.ids.set(value, fresh)
      out[column] = fresh
      continue
    }
    // A reference to a row read before (parents come first in the archive) follows its new id.
    out[column] =
      (column.endsWith('_id') || column === 'target_id') && typeof value === 'string'
        ? (ctx.ids.get(value) ?? value)
        : typeof value === 'object' && value !== null
          ? remapJson(value, ctx.ids, ctx.users)
          : value
  }
  if (table.keyType === 'uuid' && out[table.key] === undefined)
    throw invalidLine(ctx.name, ctx.n, `"${table.key}" is missing.`)
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

/**
 * The archive's members matched to this server's users by e-mail (case-insensitive): their
 * user ids mapped, and the unknown ones as invitations.
 */
async function matchMembers(
  db: Db,
  zip: ZipFile,
  checked: CheckedArchive,
): Promise<Pick<StageSummary, 'invitations' | 'members'> & { users: Map<string, string> }> {
  const users = new Map<string, string>()
  const invitations: { email: string; role: string }[] = []
  const members: { userId: string; role: string }[] = []
  const entry = checked.entries.get(MEMBERS_ENTRY)
  if (!entry) return { users, invitations, members }
  for await (const [n, line] of entryLines(zip, entry)) {
    const m = parseLine(MEMBERS_ENTRY, n, line)
    if (typeof m.user_id !== 'string' || typeof m.email !== 'string' || typeof m.role !== 'string')
      throw invalidLine(MEMBERS_ENTRY, n, 'a member needs user_id, email and role.')
    const role = ['owner', 'admin', 'member'].includes(m.role) ? m.role : 'member'
    const local = await userIdByEmail(db, m.email)
    if (local) {
      users.set(m.user_id, local)
      members.push({ userId: local, role })
    } else invitations.push({ email: m.email.toLowerCase(), role })
  }
  return { users, invitations, members }
}

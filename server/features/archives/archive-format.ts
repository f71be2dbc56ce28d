/**
 * The layout of a Lexdesk organisation archive (issue 27, decision 0063), shared by export and
 * import: a ZIP holding `manifest.json`, one NDJSON file per exported table under `tables/`
 * (one JSON object per line, the row without its `org_id`), and every stored file under
 * `files/<area>/<row id>` (a document's original, a recording's audio, a bucket object's bytes),
 * named in its row's `file` field. Jobs, API keys, tenant tokens, counters and import staging
 * marks are not exported: they are credentials or state the importing server rebuilds.
 */
import { z } from 'zod'

/** The `format` of manifest.json: what an importer checks before reading anything else. */
export const ARCHIVE_FORMAT = 'lexdesk-org-archive'
/** The archive layout's version; an importer refuses any other (422 `archive_invalid`). */
export const ARCHIVE_VERSION = 1

/** The folder of stored files in the archive, by the table whose rows own them. */
export const FILE_FOLDERS = {
  documents: 'files/documents',
  recordings: 'files/recordings',
  storage_objects: 'files/objects',
} as const

/**
 * One exported table: its SQL name, the column its keyset pages walk (unique, never null), that
 * column's SQL type (for the page's bound), the columns left out (generated ones the database
 * computes again, staging marks, blob keys that are replaced by `file`) and, for rows that own a
 * stored file, its folder in the archive.
 */
export interface ExportedTable {
  name: string
  key: string
  keyType: 'uuid' | 'bigint' | 'text'
  omit: readonly string[]
  filesIn?: (typeof FILE_FOLDERS)[keyof typeof FILE_FOLDERS]
  /**
   * The columns naming another row (column → the table it names, `*` for any): an importer
   * gives them the new id of that row of the archive and never keeps an id the archive does not
   * hold (decision 0103), so a row cannot reach another firm's. Every id column of the table is
   * here, in `people`, its `key` or `omit` (`archive-columns.test.ts` checks the database).
   */
  refs: Readonly<Record<string, string>>
  /**
   * The columns naming a person or credential of the source server (better-auth user ids, an
   * API key's or token's id): an import never points them at this server's users (decision 0103).
   */
  people: readonly string[]
}

/**
 * The tenant tables of an archive, parents before children (so an importer can remap each row's
 * references from the rows before it); the event and audit logs last, since their JSON `meta`
 * names rows of any table (a bucket, an object), remapped by the importer too. `doc_chunks` omits `tsv` (generated) and `embedding`
 * unless the export asked for embeddings (export-archive.ts).
 */
export const EXPORTED_TABLES: readonly ExportedTable[] = [
  {
    name: 'org_settings',
    key: 'org_id',
    keyType: 'text',
    omit: [],
    refs: {},
    people: ['updated_by'],
  },
  { name: 'apps', key: 'id', keyType: 'uuid', omit: [], refs: {}, people: [] },
  {
    name: 'documents',
    key: 'id',
    keyType: 'uuid',
    omit: ['preview', 'file_key'],
    filesIn: FILE_FOLDERS.documents,
    refs: { app_id: 'apps' },
    people: ['created_by'],
  },
  {
    name: 'analyses',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { document_id: 'documents' },
    people: ['created_by'],
  },
  {
    name: 'doc_chunks',
    key: 'id',
    keyType: 'uuid',
    omit: ['tsv'],
    refs: { app_id: 'apps', document_id: 'documents' },
    people: [],
  },
  {
    name: 'entities',
    key: 'id',
    keyType: 'uuid',
    omit: ['import_job_id'],
    refs: { app_id: 'apps' },
    people: [],
  },
  {
    name: 'conversations',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { app_id: 'apps' },
    people: ['created_by'],
  },
  {
    name: 'messages',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { app_id: 'apps', conversation_id: 'conversations' },
    people: [],
  },
  {
    name: 'recordings',
    key: 'id',
    keyType: 'uuid',
    omit: ['file_key', 'job_id'],
    filesIn: FILE_FOLDERS.recordings,
    refs: { app_id: 'apps', document_id: 'documents' },
    people: ['created_by'],
  },
  {
    name: 'recording_segments',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { app_id: 'apps', recording_id: 'recordings' },
    people: [],
  },
  {
    name: 'voice_consents',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { app_id: 'apps' },
    people: ['user_id'],
  },
  {
    name: 'storage_buckets',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: {},
    people: ['created_by'],
  },
  {
    name: 'storage_objects',
    key: 'id',
    keyType: 'uuid',
    omit: ['file_key'],
    filesIn: FILE_FOLDERS.storage_objects,
    refs: { bucket_id: 'storage_buckets' },
    people: ['created_by'],
  },
  // Reviews (decision 0143): a review, its columns and rows, then its cells (which name a row,
  // a column and the row's document). The importer checks them against each other
  // (import-reviews.ts) and their citations against the staged documents' text.
  {
    name: 'reviews',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { app_id: 'apps' },
    people: ['created_by'],
  },
  {
    name: 'review_columns',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { app_id: 'apps', review_id: 'reviews' },
    people: [],
  },
  {
    name: 'review_rows',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { app_id: 'apps', review_id: 'reviews', document_id: 'documents' },
    people: [],
  },
  {
    name: 'review_cells',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: {
      app_id: 'apps',
      review_id: 'reviews',
      row_id: 'review_rows',
      column_id: 'review_columns',
      document_id: 'documents',
    },
    people: ['verified_by'],
  },
  {
    name: 'events',
    key: 'id',
    keyType: 'bigint',
    omit: [],
    refs: { app_id: 'apps' },
    people: ['actor_id'],
  },
  {
    name: 'audit_logs',
    key: 'id',
    keyType: 'uuid',
    omit: [],
    refs: { target_id: '*' },
    people: ['actor_id', 'credential_id'],
  },
]

/** The NDJSON entry of a table (`members` is the organisation's members, by e-mail and role). */
export function tableEntry(table: string): string {
  return `tables/${table}.ndjson`
}

/** The NDJSON entry of the members: `{ user_id, email, role }`, user ids as the source had them. */
export const MEMBERS_ENTRY = tableEntry('members')

/** manifest.json: what the archive holds and the SHA-256 (hex) of every other entry. */
export const ManifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.number().int(),
  lexdeskVersion: z.string().max(50),
  exportedAt: z.string().datetime(),
  source: z.object({ orgId: z.string().max(200), name: z.string().max(500), slug: z.string() }),
  /** The source's embedder (engine, model and dimension) when embeddings are included, or null. */
  embeddings: z.object({ included: z.boolean(), embedder: z.string().max(200).nullable() }),
  /** Rows per table (`members` included), files per folder. */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** Entry name → SHA-256 of its bytes, lower-case hex. */
  entries: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
})
export type Manifest = z.infer<typeof ManifestSchema>

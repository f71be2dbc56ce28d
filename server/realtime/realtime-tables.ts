/**
 * The tenant tables a realtime client may subscribe to (issue 24), and what of a changed row it
 * is sent. Each has a statement-level trigger announcing its changes (migrations
 * 0036_realtime-triggers.sql and 0043_storage-realtime.sql; change-feed.test.ts checks both name
 * the same tables). The
 * columns leave out what is large or not for a live list: document text, file keys, job inputs
 * and results, embeddings. A table is named `schema.table`, as clients subscribe to it.
 */

/** How a table's rows are sent: the type of its `id` and the columns read back. */
export interface RealtimeTable {
  /** The SQL type of `id`, to compare the announced ids (text) with it. */
  idType: 'uuid' | 'bigint'
  /** Columns read back (under the organisation's RLS) and sent, `id` first. */
  columns: readonly string[]
}

export const REALTIME_TABLES = {
  'public.documents': {
    idType: 'uuid',
    columns: ['id', 'app_id', 'title', 'document_type', 'file_name', 'mime_type', 'size_bytes'],
  },
  'public.entities': { idType: 'uuid', columns: ['id', 'app_id', 'type', 'name', 'data'] },
  'public.events': { idType: 'bigint', columns: ['id', 'app_id', 'kind', 'meta', 'created_at'] },
  'public.recordings': {
    idType: 'uuid',
    columns: ['id', 'app_id', 'title', 'status', 'duration_sec', 'error', 'job_id', 'document_id'],
  },
  'public.conversations': { idType: 'uuid', columns: ['id', 'app_id', 'started_at', 'created_by'] },
  'public.jobs': {
    idType: 'uuid',
    columns: ['id', 'kind', 'status', 'progress', 'message', 'error_code', 'subject_id'],
  },
  'public.storage_buckets': {
    idType: 'uuid',
    columns: ['id', 'name', 'public', 'created_by', 'created_at'],
  },
  'public.storage_objects': {
    idType: 'uuid',
    columns: ['id', 'bucket_id', 'name', 'size_bytes', 'content_type', 'created_by', 'updated_at'],
  },
} as const satisfies Record<string, RealtimeTable>

export type RealtimeTableName = keyof typeof REALTIME_TABLES

/** Whether `name` (`schema.table`) is on the allow-list. */
export function isRealtimeTable(name: string): name is RealtimeTableName {
  return Object.hasOwn(REALTIME_TABLES, name)
}

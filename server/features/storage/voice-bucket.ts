/**
 * The system bucket `voice-recordings` (issue 24): the recordings the voice screen makes, shown
 * among the buckets read-only. It has no row of its own: its objects are the `recordings` rows,
 * named by their key inside the organisation's voice folder (`<userId>/<timestamp>.<ext>`), and
 * are added and removed only through the voice routes (which keep transcripts and segments in
 * step); here they are listed, downloaded and signed.
 */
import { keysetPage } from '../../lists/list-kit'
import { and, asc, eq, sql } from 'drizzle-orm'
import { orgBlobFolder } from '../../blob/blob-keys'
import { recordings } from '../../db/schema'
import type { Principal, Tx } from '../../db/tenant'
import { AppError } from '../../errors/app-error'

/** The system bucket's fixed id (no organisation can have a bucket row with it: rows are v4 random). */
export const VOICE_BUCKET_ID = '00000000-0000-4000-8000-00000000f01c'

/** The system bucket's name, which no bucket row may take. */
export const VOICE_BUCKET_NAME = 'voice-recordings'

/** The system bucket as the API shows it. */
export const voiceBucket = {
  id: VOICE_BUCKET_ID,
  name: VOICE_BUCKET_NAME,
  public: false,
  readOnly: true,
  createdBy: null,
  createdAt: new Date(0).toISOString(),
}

/** The 403 of a write to the system bucket. */
export const bucketReadOnly = () =>
  new AppError(
    'bucket_read_only',
    'The voice-recordings bucket is read-only here: record and delete on the voice screen.',
  )

type RecordingRow = Pick<
  typeof recordings.$inferSelect,
  'id' | 'fileKey' | 'mimeType' | 'sizeBytes' | 'createdBy' | 'createdAt'
>

/** A recording as an object of the system bucket. */
function toVoiceObject(folder: string, row: RecordingRow) {
  return {
    id: row.id,
    bucketId: VOICE_BUCKET_ID,
    name: row.fileKey.slice(folder.length),
    size: row.sizeBytes,
    contentType: row.mimeType,
    createdBy: row.createdBy,
    updatedAt: row.createdAt.toISOString(),
  }
}

const columns = {
  id: recordings.id,
  fileKey: recordings.fileKey,
  mimeType: recordings.mimeType,
  sizeBytes: recordings.sizeBytes,
  createdBy: recordings.createdBy,
  createdAt: recordings.createdAt,
}

/** One page of the system bucket, as listObjects (object-service.ts) answers a bucket's. */
export async function listVoiceObjects(
  tx: Tx,
  principal: Principal,
  query: { prefix: string; limit: number; after: string | null },
) {
  const folder = orgBlobFolder(principal.orgId, 'voice-recordings')
  const byteKey = sql`${recordings.fileKey} collate "C"`
  const rows = await tx
    .select(columns)
    .from(recordings)
    .where(
      and(
        sql`starts_with(${recordings.fileKey}, ${folder + query.prefix})`,
        query.after === null ? undefined : sql`${byteKey} > ${folder + query.after} collate "C"`,
      ),
    )
    .orderBy(asc(byteKey))
    .limit(query.limit + 1)
  return keysetPage(
    rows.map((row) => toVoiceObject(folder, row)),
    query.limit,
    (last) => last.name,
  )
}

/** Recording `id` as an object of the system bucket (its key and name), or null. */
export async function voiceObjectIn(tx: Tx, principal: Principal, id: string) {
  const [row] = await tx.select(columns).from(recordings).where(eq(recordings.id, id))
  if (!row) return null
  const folder = orgBlobFolder(principal.orgId, 'voice-recordings')
  return { ...toVoiceObject(folder, row), fileKey: row.fileKey }
}

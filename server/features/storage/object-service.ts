/**
 * Objects of storage buckets (issue 24, decision 0055): list (by name, keyset-paged), upload
 * (streamed into the blob store, typed from its first bytes, within the organisation's quota),
 * sign a link, and delete. An object's bytes live under a key of their own,
 * `orgs/<org>/buckets/<bucket>/<uuid>`, new at every write: a failed or refused upload, or one
 * past the quota, deletes only its own new file, and an overwrite deletes the old file once the
 * row names the new one, so nothing is ever half-written. An overwrite is a deletion of the old
 * bytes: only the object's creator or an admin may make one, and the creator stays (issue 41).
 */
import { keysetPage } from '../../lists/list-kit'
import { randomUUID } from 'node:crypto'
import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { BlobStore } from '../../blob/blob-store'
import { assertOrgKey, orgBlobKey } from '../../blob/blob-keys'
import type { Db } from '../../db/client'
import { assertCreatorOrAdmin } from '../../db/assert-creator-or-admin'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { storageObjects } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import type { FileSink } from '../../uploads/read-multipart'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { bucketIn, bucketNotFound } from './bucket-service'
import { normaliseObjectName, normalisePrefix } from './object-name'
import { peekHead, sniffContentType } from '../../media/sniff-content-type'
import { bucketReadOnly, listVoiceObjects, VOICE_BUCKET_ID, voiceObjectIn } from './voice-bucket'

type ObjectRow = typeof storageObjects.$inferSelect

export interface StorageDeps {
  db: Db
  blobs: BlobStore
  /** The most bytes an organisation may keep in its buckets (STORAGE_QUOTA_BYTES). */
  quotaBytes: number
  /** The most objects an organisation may keep in its buckets (STORAGE_QUOTA_OBJECTS). */
  quotaObjects: number
}

/** An object as the API shows it. */
export const toObject = (row: ObjectRow) => ({
  id: row.id,
  bucketId: row.bucketId,
  name: row.name,
  size: row.sizeBytes,
  contentType: row.contentType,
  createdBy: row.createdBy,
  updatedAt: row.updatedAt.toISOString(),
})

/** The 404 of an object that is not the organisation's. */
export const objectNotFound = () =>
  new AppError('object_not_found', 'No such object in this organisation')

/** The 413 of a write past the organisation's quota of bytes, naming it. */
export function quotaExceeded(quotaBytes: number): AppError {
  return new AppError(
    'storage_quota_exceeded',
    `This upload would take the organisation past its storage quota of ${quotaBytes} bytes (STORAGE_QUOTA_BYTES). Nothing was stored.`,
  )
}

/** The 413 of a new object past the organisation's quota of objects, naming it. */
function objectQuotaExceeded(quotaObjects: number): AppError {
  return new AppError(
    'storage_quota_exceeded',
    `The organisation already keeps ${quotaObjects} objects, its quota (STORAGE_QUOTA_OBJECTS): delete some or overwrite one. Nothing was stored.`,
  )
}

// Names compare byte-wise (collation "C"), so the order and the keyset cursor agree everywhere.
const byteName = sql`${storageObjects.name} collate "C"`

/**
 * One page of bucket `bucketId`'s objects whose names start with `prefix`, by name ascending:
 * at most `limit`, after the name `after` (the page before's last); `nextCursor` is the last
 * name when more follow, else null. 404 `bucket_not_found`.
 */
export async function listObjects(
  db: Db,
  principal: Principal,
  bucketId: string,
  query: { prefix: string; limit: number; after: string | null },
) {
  if (bucketId === VOICE_BUCKET_ID)
    return withTenant(db, principal, (tx) => listVoiceObjects(tx, principal, query))
  const rows = await withTenant(db, principal, async (tx) => {
    await bucketIn(tx, bucketId)
    return tx
      .select()
      .from(storageObjects)
      .where(
        and(
          eq(storageObjects.bucketId, bucketId),
          query.prefix ? sql`starts_with(${storageObjects.name}, ${query.prefix})` : undefined,
          query.after === null ? undefined : gt(byteName, sql`${query.after} collate "C"`),
        ),
      )
      .orderBy(asc(byteName))
      .limit(query.limit + 1)
  })
  const { items, nextCursor } = keysetPage(rows, query.limit, (last) => last.name)
  return { items: items.map(toObject), nextCursor }
}

/** An upload's bytes in the store, not yet named by a row. */
export interface StoredObjectFile {
  fileKey: string
  fileName: string
  size: number
  contentType: string
}

/** Bytes and objects the organisation keeps in its buckets. */
async function usage(tx: Tx): Promise<{ bytes: number; objects: number }> {
  const [row] = await tx
    .select({
      bytes: sql<string>`coalesce(sum(${storageObjects.sizeBytes}), 0)`,
      objects: sql<string>`count(*)`,
    })
    .from(storageObjects)
  return { bytes: Number(row?.bytes ?? 0), objects: Number(row?.objects ?? 0) }
}

/**
 * The upload sink (uploads/read-multipart.ts) of bucket `bucketId`: checks the bucket exists (404),
 * types the file from its first bytes and streams it under a new key, failing with the quota's
 * 413 as soon as the file alone passes the quota; the discard deletes the file. What the rest of
 * the organisation's objects leave is checked by saveObject, once the name (and so the object
 * it may replace) is known: the form's fields may follow its file.
 */
export function objectFileSink(
  deps: StorageDeps,
  principal: Principal,
  bucketId: string,
): FileSink<StoredObjectFile> {
  return {
    async store(file) {
      if (bucketId === VOICE_BUCKET_ID) throw bucketReadOnly()
      await withTenant(deps.db, principal, (tx) => bucketIn(tx, bucketId))
      const fileKey = orgBlobKey(principal.orgId, 'buckets', bucketId, randomUUID())
      const { head, all } = await peekHead(capped(file.chunks, deps.quotaBytes))
      const contentType = await sniffContentType(head)
      const size = await deps.blobs.putStream(fileKey, all, contentType)
      return { fileKey, fileName: file.fileName, size, contentType }
    },
    discard: (stored) => deps.blobs.delete(stored.fileKey),
  }
}

/** `chunks`, failing with the quota's 413 once more than `quotaBytes` have passed. */
async function* capped(
  chunks: AsyncIterable<Uint8Array>,
  quotaBytes: number,
): AsyncGenerator<Uint8Array> {
  let total = 0
  for await (const chunk of chunks) {
    total += chunk.length
    if (total > quotaBytes) throw quotaExceeded(quotaBytes)
    yield chunk
  }
}

/**
 * Names the stored file `prefix` (as typed: normalised here) + its file name in bucket `bucketId`, replacing an object of
 * that name (whose old file is then deleted). Replacing takes the right to delete the object
 * (its creator, or an admin: 403 `forbidden` otherwise) and keeps its creator. Checks the quotas (bytes, and objects for a new
 * name) under a per-organisation lock, so two uploads at once cannot both pass them. On any failure the new file is deleted.
 * 400 `bad_object_name`, 403 `forbidden`, 404 `bucket_not_found`, 413 `storage_quota_exceeded`.
 */
export async function saveObject(
  deps: StorageDeps,
  principal: Principal,
  bucketId: string,
  stored: StoredObjectFile,
  prefix: string,
) {
  let replacedKey: string | null = null
  try {
    const name = normaliseObjectName(`${normalisePrefix(prefix)}${stored.fileName}`)
    const row = await withTenant(deps.db, principal, async (tx) => {
      await bucketIn(tx, bucketId)
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`storage:${principal.orgId}`}))`)
      const [old] = await tx
        .select()
        .from(storageObjects)
        .where(and(eq(storageObjects.bucketId, bucketId), eq(storageObjects.name, name)))
        .for('update')
      // Replacing an object deletes its bytes: it takes the right to delete it (issue 41).
      if (old)
        assertCreatorOrAdmin(principal, old.createdBy, {
          code: 'forbidden',
          detail: `Only whoever uploaded "${name}", or an admin, can replace it. Upload yours under another name. Nothing was stored.`,
        })
      const used = await usage(tx)
      if (used.bytes - (old?.sizeBytes ?? 0) + stored.size > deps.quotaBytes)
        throw quotaExceeded(deps.quotaBytes)
      // An overwrite keeps the count; only a new name needs room.
      if (!old && used.objects >= deps.quotaObjects) throw objectQuotaExceeded(deps.quotaObjects)
      const values = {
        fileKey: stored.fileKey,
        sizeBytes: stored.size,
        contentType: stored.contentType,
        updatedAt: new Date(),
      }
      // An overwrite keeps the object's creator: whoever replaced it did not become its owner.
      const [saved] = old
        ? await tx
            .update(storageObjects)
            .set(values)
            .where(eq(storageObjects.id, old.id))
            .returning()
        : await tx
            .insert(storageObjects)
            .values({
              ...values,
              orgId: principal.orgId,
              bucketId,
              name,
              createdBy: principal.userId,
            })
            .returning()
      if (!saved) throw new Error('write returned no row')
      await recordAudit(
        tx,
        principal,
        'storage_object.upload',
        { type: 'storage_object', id: saved.id },
        { bucketId, name, size: stored.size, replaced: old !== undefined },
      )
      await recordEvent(tx, principal, 'object.uploaded', {
        objectId: saved.id,
        bucketId,
        name,
      })
      replacedKey = old?.fileKey ?? null
      return saved
    })
    if (replacedKey) await deps.blobs.delete(replacedKey)
    return toObject(row)
  } catch (error) {
    await deps.blobs.delete(stored.fileKey)
    // The bucket was deleted between the check and the write.
    if (isForeignKeyViolation(error, 'storage_objects_bucket_fk')) throw bucketNotFound()
    throw error
  }
}

/** What the download, sign and delete of an object need of it. */
interface FoundObject {
  fileKey: string
  name: string
  bucketId: string
  contentType: string
  createdBy: string | null
  /** A recording of the system bucket (voice-bucket.ts): never deleted here. */
  readOnly: boolean
}

/**
 * Object `objectId` read in `tx` (a bucket object, or a recording of the system bucket) with its
 * key checked to be the organisation's; or the 404.
 */
async function objectIn(tx: Tx, principal: Principal, objectId: string): Promise<FoundObject> {
  const [row] = await tx.select().from(storageObjects).where(eq(storageObjects.id, objectId))
  if (row) {
    assertOrgKey(principal.orgId, row.fileKey, 'buckets')
    return { ...row, readOnly: false }
  }
  const voice = await voiceObjectIn(tx, principal, objectId)
  if (!voice) throw objectNotFound()
  assertOrgKey(principal.orgId, voice.fileKey, 'voice-recordings')
  return { ...voice, readOnly: true }
}

/** Object `objectId` to download: its key, name and stored type. 404 `object_not_found`. */
export async function getObjectFile(db: Db, principal: Principal, objectId: string) {
  const row = await withTenant(db, principal, (tx) => objectIn(tx, principal, objectId))
  // The name's last segment, as the file is saved; the type as stored (sniffed at upload).
  return {
    key: row.fileKey,
    fileName: row.name.split('/').at(-1) ?? row.name,
    contentType: row.contentType,
  }
}

/**
 * A link granting GET on object `objectId` for `ttlSeconds`, with its expiry; audited (who
 * shared what, for how long). The link names the object's current bytes: an overwrite voids it.
 */
export async function signObject(
  deps: StorageDeps,
  principal: Principal,
  objectId: string,
  ttlSeconds: number,
) {
  const row = await withTenant(deps.db, principal, async (tx) => {
    const found = await objectIn(tx, principal, objectId)
    await recordAudit(
      tx,
      principal,
      'storage_object.sign',
      { type: 'storage_object', id: objectId },
      { name: found.name, ttlSeconds },
    )
    return found
  })
  const fileName = row.name.split('/').at(-1) ?? row.name
  const url = await deps.blobs.signedUrl(row.fileKey, ttlSeconds, 'GET', fileName)
  return { url, expiresAt: new Date(Date.now() + ttlSeconds * 1000).toISOString() }
}

/**
 * Deletes object `objectId` and then its file. Members delete only objects they created (an
 * overwrite keeps the creator; 403 `forbidden`), admins any; 404 `object_not_found`.
 */
export async function deleteObject(deps: StorageDeps, principal: Principal, objectId: string) {
  const row = await withTenant(deps.db, principal, async (tx) => {
    const found = await objectIn(tx, principal, objectId)
    if (found.readOnly) throw bucketReadOnly()
    assertCreatorOrAdmin(principal, found.createdBy, {
      code: 'forbidden',
      detail: 'Only whoever uploaded this object, or an admin, can delete it.',
    })
    await tx.delete(storageObjects).where(eq(storageObjects.id, objectId))
    const target = { type: 'storage_object', id: objectId }
    await recordAudit(tx, principal, 'storage_object.delete', target, {
      bucketId: found.bucketId,
      name: found.name,
    })
    await recordEvent(tx, principal, 'object.deleted', {
      objectId,
      bucketId: found.bucketId,
      name: found.name,
    })
    return found
  })
  await deps.blobs.delete(row.fileKey)
}

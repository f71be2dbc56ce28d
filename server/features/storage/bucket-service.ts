/**
 * Storage buckets of an organisation (issue 24, decision 0055), through tenant transactions:
 * list, create and delete. Creating and deleting are audited and announced on the event log;
 * deleting a bucket deletes its objects' rows (the foreign key cascades) and then their files.
 */
import { asc, eq } from 'drizzle-orm'
import type { BlobStore } from '../../blob/blob-store'
import { orgBlobFolder } from '../../blob/blob-keys'
import type { Db } from '../../db/client'
import { isUniqueViolation } from '../../db/constraint-violation'
import { storageBuckets } from '../../db/schema'
import { withTenant, withTenantReads, type Principal, type Tx } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { bucketReadOnly, VOICE_BUCKET_ID, VOICE_BUCKET_NAME, voiceBucket } from './voice-bucket'

type BucketRow = typeof storageBuckets.$inferSelect

/** A bucket as the API shows it. */
export const toBucket = (row: BucketRow) => ({
  id: row.id,
  name: row.name,
  public: row.public,
  readOnly: false,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
})

/** The 404 of a bucket that is not the organisation's. */
export const bucketNotFound = () =>
  new AppError('bucket_not_found', 'No such bucket in this organisation')

/** The organisation's buckets by name, after the read-only system bucket voice-recordings. */
export async function listBuckets(db: Db, principal: Principal) {
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx.select().from(storageBuckets).orderBy(asc(storageBuckets.name)),
  ])
  return { items: [voiceBucket, ...rows.map(toBucket)] }
}

/** Bucket `bucketId` read in `tx`, or the 404. */
export async function bucketIn(tx: Tx, bucketId: string): Promise<BucketRow> {
  const [row] = await tx.select().from(storageBuckets).where(eq(storageBuckets.id, bucketId))
  if (!row) throw bucketNotFound()
  return row
}

/**
 * Creates bucket `name` (checked by the route: lower-case letters, digits, `-`, 3–63). 409
 * `bucket_exists` when the organisation has one of that name.
 */
export async function createBucket(
  db: Db,
  principal: Principal,
  input: { name: string; public: boolean },
) {
  if (input.name === VOICE_BUCKET_NAME) throw bucketExists(input.name)
  try {
    const row = await withTenant(db, principal, async (tx) => {
      const [inserted] = await tx
        .insert(storageBuckets)
        .values({
          orgId: principal.orgId,
          name: input.name,
          public: input.public,
          createdBy: principal.userId,
        })
        .returning()
      if (!inserted) throw new Error('insert returned no row')
      const target = { type: 'storage_bucket', id: inserted.id }
      await recordAudit(tx, principal, 'storage_bucket.create', target, {
        name: inserted.name,
        public: inserted.public,
      })
      await recordEvent(tx, principal, 'bucket.created', {
        bucketId: inserted.id,
        name: inserted.name,
      })
      return inserted
    })
    return toBucket(row)
  } catch (error) {
    if (isUniqueViolation(error, 'storage_buckets_org_name_idx')) throw bucketExists(input.name)
    throw error
  }
}

const bucketExists = (name: string) =>
  new AppError('bucket_exists', `This organisation already has a bucket "${name}"`)

/**
 * Deletes bucket `bucketId` with its objects; 404 `bucket_not_found` when there is none, 403
 * `bucket_read_only` for the system bucket.
 */
export async function deleteBucket(
  deps: { db: Db; blobs: BlobStore },
  principal: Principal,
  bucketId: string,
): Promise<void> {
  if (bucketId === VOICE_BUCKET_ID) throw bucketReadOnly()
  await withTenant(deps.db, principal, async (tx) => {
    const [row] = await tx
      .delete(storageBuckets)
      .where(eq(storageBuckets.id, bucketId))
      .returning({ name: storageBuckets.name })
    if (!row) throw bucketNotFound()
    const target = { type: 'storage_bucket', id: bucketId }
    await recordAudit(tx, principal, 'storage_bucket.delete', target, { name: row.name })
    await recordEvent(tx, principal, 'bucket.deleted', { bucketId, name: row.name })
  })
  // After the commit: a failed delete of files leaves orphans for the orphan walk, never rows
  // without their files.
  await deps.blobs.deletePrefix(orgBlobFolder(principal.orgId, 'buckets', bucketId))
}

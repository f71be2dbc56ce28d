/**
 * Objects of public buckets, served without a credential (issue 24: "public buckets serve without
 * a signature") at a stable address, `<PUBLIC_URL>/api/public/storage/<orgId>/<bucket>/<name>`.
 * The read runs under the organisation's RLS like any other; a private bucket, a missing bucket
 * or object and another organisation's all answer the same 404, so the address tells nothing of
 * what exists behind a private bucket.
 */
import { and, eq } from 'drizzle-orm'
import { assertOrgKey } from '../../blob/blob-keys'
import type { Db } from '../../db/client'
import { storageBuckets, storageObjects } from '../../db/schema'
import { withTenantReads } from '../../db/tenant'
import { AppError } from '../../errors/app-error'
import { normaliseObjectName } from './object-name'

/** Where public objects are served (outside /api/v1: no session, no role). */
export const PUBLIC_OBJECT_PATH = '/api/public/storage'

/** The one answer for anything not publicly served. */
export const notPublic = () =>
  new AppError('object_not_found', 'There is no public file at this address.')

/** An organisation id as better-auth makes them (letters, digits, `-`, `_`). */
const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/

/** The stable address of object `name` of public bucket `bucketName` of organisation `orgId`. */
export function publicObjectUrl(baseUrl: string, orgId: string, bucketName: string, name: string) {
  const path = name.split('/').map(encodeURIComponent).join('/')
  return `${baseUrl}${PUBLIC_OBJECT_PATH}/${orgId}/${bucketName}/${path}`
}

/**
 * Object `name` (as in the URL, normalised as at upload) of bucket `bucketName` of organisation
 * `orgId` when that bucket is public: its key, file name and stored type. Throws the 404 of
 * notPublic otherwise, a bad name included.
 */
export async function getPublicObjectFile(db: Db, orgId: string, bucketName: string, name: string) {
  if (!ORG_ID.test(orgId)) throw notPublic()
  let normalised: string
  try {
    normalised = normaliseObjectName(name)
  } catch {
    throw notPublic()
  }
  const [rows] = await withTenantReads(db, { orgId }, (tx) => [
    tx
      .select({ fileKey: storageObjects.fileKey, contentType: storageObjects.contentType })
      .from(storageObjects)
      .innerJoin(storageBuckets, eq(storageBuckets.id, storageObjects.bucketId))
      .where(
        and(
          eq(storageBuckets.name, bucketName),
          eq(storageBuckets.public, true),
          eq(storageObjects.name, normalised),
        ),
      ),
  ])
  const row = rows[0]
  if (!row) throw notPublic()
  assertOrgKey(orgId, row.fileKey, 'buckets')
  return {
    key: row.fileKey,
    fileName: normalised.split('/').at(-1) ?? normalised,
    contentType: row.contentType,
  }
}

/**
 * The one owner of the blob key layout: every object of an organisation lives under
 * `orgs/<orgId>/<area>/…`, and nothing else builds or reads that shape. Tenant isolation in the
 * store rests on this module: a key is built only from checked segments (none may hold `/`, be
 * `.` or `..`, or carry a control character), so no organisation id, document id or object name
 * can reach another organisation's folder; `assertOrgKey` refuses a key, handed back from a
 * row or a job's input, that is not under the expected organisation. Keys outside `orgs/` are the
 * server's own (`system/…`), never listed by the orphan walk.
 */
import { assertSafeKey } from './blob-store'

/** The areas of an organisation's files: one per feature that stores them. */
export const BLOB_AREAS = [
  'documents',
  'voice-recordings',
  'imports',
  'buckets',
  'exports',
  'clones',
] as const
export type BlobArea = (typeof BLOB_AREAS)[number]

/** The folder of every organisation's files; the orphan walk lists only under it. */
export const ORGS_PREFIX = 'orgs/'

/** Where the server keeps its own state in the store (the orphan walk's clean-stop marker). */
export const SYSTEM_PREFIX = 'system/'

/** Longest key, in UTF-8 bytes: S3's limit (and the issue's), kept on every driver. */
export const MAX_KEY_BYTES = 1024

/** Throws unless `segment` is one non-empty path segment that cannot leave its folder. */
function checkSegment(segment: string): string {
  if (segment.includes('/')) throw new Error(`Unsafe blob key segment: ${JSON.stringify(segment)}`)
  assertSafeKey(segment)
  return segment
}

/** Throws unless `key` is a safe key of at most MAX_KEY_BYTES. */
function checkLength(key: string): string {
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES)
    throw new Error(`Blob key longer than ${MAX_KEY_BYTES} bytes`)
  return key
}

/** `orgs/<orgId>/`: every file of the organisation (deleting it removes them all). */
export function orgBlobPrefix(orgId: string): string {
  return `${ORGS_PREFIX}${checkSegment(orgId)}/`
}

/**
 * The folder `orgs/<orgId>/<area>/<segments…>/` (ending in '/'). Throws an Error for any unsafe
 * segment (see the module comment).
 */
export function orgBlobFolder(orgId: string, area: BlobArea, ...segments: string[]): string {
  return checkLength(
    `${orgBlobPrefix(orgId)}${[area, ...segments].map((s) => checkSegment(s)).join('/')}/`,
  )
}

/**
 * The key `orgs/<orgId>/<area>/<segments…>` of one object. Throws an Error for any unsafe
 * segment, no segment at all, or a key past MAX_KEY_BYTES.
 */
export function orgBlobKey(orgId: string, area: BlobArea, ...segments: string[]): string {
  if (segments.length === 0) throw new Error('A blob key needs a name inside its area')
  return checkLength(orgBlobFolder(orgId, area, ...segments).slice(0, -1))
}

/** Whose object `key` is: its organisation, area and the segments after the area; or null. */
export function parseOrgBlobKey(
  key: string,
): { orgId: string; area: BlobArea; rest: string[] } | null {
  const [root, orgId, area, ...rest] = key.split('/')
  if (root !== 'orgs' || !orgId || rest.length === 0) return null
  if (!(BLOB_AREAS as readonly string[]).includes(area ?? '')) return null
  return { orgId, area: area as BlobArea, rest }
}

/**
 * Throws unless `key` is a safe key of organisation `orgId` (in `area`, when given): the check
 * before a key read from a row or a job's input is opened, deleted or signed.
 */
export function assertOrgKey(orgId: string, key: string, area?: BlobArea): void {
  assertSafeKey(key)
  const owner = parseOrgBlobKey(key)
  if (!owner || owner.orgId !== orgId || (area && owner.area !== area))
    throw new Error(`Blob key outside the organisation's ${area ?? 'files'}`)
}

import type { Readable } from 'node:stream'

/**
 * Object storage for original files, recordings, imports and tenant buckets, on the file system
 * (fs-blob-store.ts) or S3 (s3-blob-store.ts); both pass the same contract tests
 * (blob-store-contract.ts). Keys are '/'-separated relative paths built by blob-keys.ts, such as
 * `orgs/<orgId>/documents/<id>/original`. Every method streams: no driver holds a whole object in
 * memory.
 */
export interface BlobStore {
  /**
   * Stores what `source` yields under `key`, replacing any object there, without holding it all
   * in memory; resolves to the number of bytes written. A failing source stores nothing (and
   * leaves an object already under `key` as it was).
   */
  putStream(
    key: string,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    contentType: string,
  ): Promise<number>
  /** The object's size, type and write time, or null if there is none. */
  head(key: string): Promise<BlobHead | null>
  /**
   * Where the object under `key` lives as a file of this machine, when the store keeps objects so
   * (the disk driver): a reader that opens files by path (an upload's checks) reads it there
   * instead of a second copy. Null on a store that does not (S3). The path names the object
   * whether or not it exists yet; it is replaced, never changed in place, by a later write.
   */
  localFile(key: string): string | null
  /**
   * Opens the object for streaming (only bytes `range.start`..`range.end`, inclusive, when a range
   * is given; the caller keeps it inside the size, see byte-range.ts), or null if there is
   * none. The caller must consume or destroy the stream.
   */
  getStream(key: string, range?: ByteRange): Promise<{ stream: Readable; head: BlobHead } | null>
  /**
   * A URL that lets whoever holds it do `method` (default GET) on `key` for `ttlSeconds` (1 to a
   * week), with no other credential: presigned by S3 on the S3 driver, an HMAC-signed Lexdesk
   * link on the disk driver (signed-links.ts). Throws an Error for an unsafe key or a life out
   * of bounds, and on a disk store built without a signer. A GET link's download is saved under
   * `fileName` when given (the object's own name; keys end in a uuid), bound into the link.
   */
  signedUrl(
    key: string,
    ttlSeconds: number,
    method?: LinkMethod,
    fileName?: string,
  ): Promise<string>
  /** Deletes the object; deleting a missing key is not an error. */
  delete(key: string): Promise<void>
  /** Every object whose key starts with `prefix` (a folder path ending in '/'), in no set order. */
  list(prefix: string): AsyncIterable<BlobInfo>
  /** Deletes every object under `prefix` (a folder path ending in '/'); none is not an error. */
  deletePrefix(prefix: string): Promise<void>
}

/** What a store knows of one object without reading it. */
export interface BlobHead {
  /** Bytes. */
  size: number
  contentType: string
  updatedAt: Date
}

/** Bytes `start` to `end` of an object, both inclusive (as in HTTP's Content-Range). */
export interface ByteRange {
  start: number
  end: number
}

/** One stored object: its key and when it was last written. */
export interface BlobInfo {
  key: string
  updatedAt: Date
}

/** Checks that `prefix` is a safe folder path ending in '/'. */
export function assertSafePrefix(prefix: string): void {
  if (!prefix.endsWith('/'))
    throw new Error(`Blob prefix must end in '/': ${JSON.stringify(prefix)}`)
  assertSafeKey(prefix.slice(0, -1))
}

/**
 * What a signed link lets its holder do. Declared with the store's contract, which signed-links.ts
 * implements on the disk driver, so the contract does not import its implementation (issue 42).
 */
export type LinkMethod = 'GET' | 'PUT'

/** Rejects keys that could escape the store: absolute, `..`, backslashes, empty or control chars. */
export function assertSafeKey(key: string): void {
  const bad =
    key.length === 0 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    // eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
    /[\u0000-\u001f]/.test(key) ||
    key.split('/').some((part) => part === '' || part === '.' || part === '..')
  if (bad) throw new Error(`Unsafe blob key: ${JSON.stringify(key)}`)
}

import type { Readable } from 'node:stream'
/**
 * Object storage for original files and, later, recordings and tenant buckets. Keys are
 * '/'-separated relative paths such as `orgs/<orgId>/documents/<id>/original.pdf`.
 */
export interface BlobStore {
  /** Stores `data` under `key`, replacing any object there. */
  put(key: string, data: Uint8Array, contentType: string): Promise<void>
  /** Reads the object, or null if there is none. */
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | null>
  /**
   * Stores what `source` yields under `key` without holding it all in memory (large uploads such
   * as CSV imports); resolves to the number of bytes written. A failing source stores nothing.
   */
  putStream(key: string, source: AsyncIterable<Uint8Array>, contentType: string): Promise<number>
  /** Opens the object for streaming, with its size in bytes, or null if there is none. */
  getStream(key: string): Promise<{ stream: Readable; size: number } | null>
  /** Deletes the object; deleting a missing key is not an error. */
  delete(key: string): Promise<void>
  /** Every object whose key starts with `prefix` (a folder path ending in '/'), in no set order. */
  list(prefix: string): AsyncIterable<BlobInfo>
  /** Deletes every object under `prefix` (a folder path ending in '/'); none is not an error. */
  deletePrefix(prefix: string): Promise<void>
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

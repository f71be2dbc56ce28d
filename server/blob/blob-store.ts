/**
 * Object storage for original files and, later, recordings and tenant buckets. Keys are
 * '/'-separated relative paths such as `orgs/<orgId>/documents/<id>/original.pdf`.
 */
export interface BlobStore {
  /** Stores `data` under `key`, replacing any object there. */
  put(key: string, data: Uint8Array, contentType: string): Promise<void>
  /** Reads the object, or null if there is none. */
  get(key: string): Promise<{ data: Uint8Array; contentType: string } | null>
  /** Deletes the object; deleting a missing key is not an error. */
  delete(key: string): Promise<void>
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

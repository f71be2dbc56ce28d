/**
 * Filesystem BlobStore under a root directory (default `<dataDir>/blobs`). Writes go to a temporary
 * file first and are renamed into place, so a crash never leaves a half-written object; the
 * content type is kept in a `.meta.json` sidecar.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { assertSafeKey, type BlobStore } from './blob-store'

/** Creates a filesystem blob store rooted at `root` (created on first write). */
export function createFsBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => {
    assertSafeKey(key)
    return path.join(root, ...key.split('/'))
  }
  const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT'
  return {
    async put(key, data, contentType) {
      const file = fileOf(key)
      await mkdir(path.dirname(file), { recursive: true })
      const tmp = `${file}.${randomUUID()}.tmp`
      await writeFile(tmp, data)
      await writeFile(`${file}.meta.json`, JSON.stringify({ contentType }))
      await rename(tmp, file)
    },
    async get(key) {
      const file = fileOf(key)
      try {
        const [data, meta] = await Promise.all([
          readFile(file),
          readFile(`${file}.meta.json`, 'utf8'),
        ])
        return {
          data: new Uint8Array(data),
          contentType: (JSON.parse(meta) as { contentType: string }).contentType,
        }
      } catch (e) {
        if (isMissing(e)) return null
        throw e
      }
    },
    async delete(key) {
      const file = fileOf(key)
      await rm(file, { force: true })
      await rm(`${file}.meta.json`, { force: true })
    },
  }
}

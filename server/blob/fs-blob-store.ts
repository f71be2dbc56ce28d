/**
 * Filesystem BlobStore under a root directory (default `<dataDir>/blobs`). Writes go to a temporary
 * file first and are renamed into place, so a crash never leaves a half-written object; the
 * content type is kept in a `.meta.json` sidecar. A prefix is a folder, so deleting a prefix
 * removes the folder with everything in it (temporary files of interrupted writes included).
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createReadStream, createWriteStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { randomUUID } from 'node:crypto'
import type { BlobLinkSigner } from './signed-links'
import {
  assertSafeKey,
  assertSafePrefix,
  type BlobHead,
  type BlobInfo,
  type BlobStore,
} from './blob-store'

const META_SUFFIX = '.meta.json'
const TMP_SUFFIX = '.tmp'
const META_PATTERN = /\.meta\.json$/
const TMP_PATTERN = /\.[0-9a-f-]{36}\.tmp$/

/**
 * Creates a filesystem blob store rooted at `root` (created on first write); its signed URLs are
 * `signer`'s links (none without one).
 */
export function createFsBlobStore(root: string, signer?: BlobLinkSigner): BlobStore {
  const fileOf = (key: string) => {
    assertSafeKey(key)
    return path.join(root, ...key.split('/'))
  }
  const folderOf = (prefix: string) => {
    assertSafePrefix(prefix)
    return path.join(root, ...prefix.slice(0, -1).split('/'))
  }
  const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT'
  /** The object's head; null when either the object or its sidecar is missing. */
  const headOf = async (file: string): Promise<BlobHead | null> => {
    try {
      const [{ size, mtime }, meta] = await Promise.all([
        stat(file),
        readFile(`${file}${META_SUFFIX}`, 'utf8'),
      ])
      const { contentType } = JSON.parse(meta) as { contentType: string }
      return { size, contentType, updatedAt: mtime }
    } catch (e) {
      if (isMissing(e)) return null
      throw e
    }
  }
  return {
    async putStream(key, source, contentType) {
      const file = fileOf(key)
      await mkdir(path.dirname(file), { recursive: true })
      const tmp = `${file}.${randomUUID()}${TMP_SUFFIX}`
      let bytes = 0
      try {
        await pipeline(
          Readable.from(source),
          async function* (chunks: AsyncIterable<Uint8Array>) {
            for await (const chunk of chunks) {
              bytes += chunk.length
              yield chunk
            }
          },
          createWriteStream(tmp),
        )
      } catch (error) {
        await rm(tmp, { force: true })
        throw error
      }
      await writeFile(`${file}${META_SUFFIX}`, JSON.stringify({ contentType }))
      await rename(tmp, file)
      return bytes
    },
    async head(key) {
      return headOf(fileOf(key))
    },
    localFile: fileOf,
    async getStream(key, range) {
      const file = fileOf(key)
      const head = await headOf(file)
      if (!head) return null
      const stream = createReadStream(file, range ? { start: range.start, end: range.end } : {})
      return { stream, head }
    },
    async signedUrl(key, ttlSeconds, method = 'GET', fileName) {
      if (!signer) throw new Error('This blob store was built without a link signer')
      return signer.sign(key, ttlSeconds, method, { fileName })
    },
    async delete(key) {
      const file = fileOf(key)
      await rm(file, { force: true })
      await rm(`${file}${META_SUFFIX}`, { force: true })
    },
    async *list(prefix): AsyncIterable<BlobInfo> {
      const folder = folderOf(prefix)
      let entries
      try {
        entries = await readdir(folder, { recursive: true, withFileTypes: true })
      } catch (e) {
        if (isMissing(e)) return
        throw e
      }
      // A write cut short by a crash leaves a sidecar or temporary file without its object: it is
      // listed under the object's key too, so reconciliation can remove it.
      const found = new Map<string, Date>()
      for (const entry of entries) {
        if (!entry.isFile()) continue
        const file = path.join(entry.parentPath, entry.name)
        const key = path
          .relative(root, file)
          .split(path.sep)
          .join('/')
          .replace(TMP_PATTERN, '')
          .replace(META_PATTERN, '')
        const { mtime } = await stat(file)
        const seen = found.get(key)
        if (!seen || seen < mtime) found.set(key, mtime)
      }
      for (const [key, updatedAt] of found) yield { key, updatedAt }
    },
    async deletePrefix(prefix) {
      await rm(folderOf(prefix), { recursive: true, force: true })
    },
  }
}

/**
 * The operator's export, outside the web server (`npm run lexdesk -- export --org SLUG --out
 * FILE.zip [--embeddings]`, scripts/lexdesk.ts): the same archive writer as the export job,
 * into a file. The file is written beside its final name and renamed when complete, so a
 * failed export leaves no file that looks whole. Recorded in the organisation's audit log and
 * event log as the system's.
 */
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Db } from '../../db/client'
import type { BlobStore } from '../../blob/blob-store'
import { writeExportArchive, type ArchiveTarget, type ExportSummary } from './export-archive'
import { recordExport } from './export-job'
import { LEXDESK_VERSION } from './lexdesk-version'
import { orgIdBySlug } from './org-members'

/** A file target: `<path>.partial`, renamed to `path` once complete, removed on failure. */
function fileTarget(path: string): ArchiveTarget {
  const partial = `${path}.partial`
  let bytes = 0
  return {
    async write(source) {
      await pipeline(
        Readable.from(source),
        async function* (chunks: AsyncIterable<Uint8Array>) {
          for await (const chunk of chunks) {
            bytes += chunk.byteLength
            yield chunk
          }
        },
        createWriteStream(partial),
      )
      await rename(partial, path)
      return bytes
    },
    remove: () => rm(partial, { force: true }),
  }
}

/**
 * Exports the organisation whose slug is `options.org` into the file `options.out`; resolves to
 * its id and slug (printed for the next command), the counts and size. Throws 404
 * `organization_not_found` for an unknown slug.
 */
export async function exportToFile(
  deps: { db: Db; blobs: BlobStore; embedderId: string },
  options: { org: string; out: string; includeEmbeddings: boolean },
  progress: (message: string) => void = () => undefined,
): Promise<ExportSummary & { orgId: string; slug: string }> {
  const orgId = await orgIdBySlug(deps.db, options.org)
  const summary = await writeExportArchive(deps, { orgId }, fileTarget(options.out), {
    includeEmbeddings: options.includeEmbeddings,
    embedderId: deps.embedderId,
    lexdeskVersion: LEXDESK_VERSION,
    signal: new AbortController().signal,
    progress,
  })
  await recordExport(
    deps.db,
    { orgId, userId: null, role: 'owner', actorType: 'system' },
    null,
    summary.sizeBytes,
  )
  return { orgId, slug: options.org, ...summary }
}

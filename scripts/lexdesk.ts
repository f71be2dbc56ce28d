/**
 * The operator's command line (issue 27), running the server's own code without the web server
 * (stop the server first on embedded PGlite, which one process owns):
 *
 *   npm run lexdesk -- export --org SLUG --out FILE.zip [--embeddings]
 *   npm run lexdesk -- clone --org SLUG --name NAME [--no-buckets]
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../server/config'
import { openDatabase } from '../server/db/client'
import { createFsBlobStore } from '../server/blob/fs-blob-store'
import { createS3BlobStore, createS3Client } from '../server/blob/s3-blob-store'
import { createEmbedder } from '../server/ai/embedder/create-embedder'
import { WorkerPool } from '../server/workers/worker-pool'
import { exportToFile } from '../server/features/tenants/export-command'
import { cloneFromCommand } from '../server/features/tenants/clone-command'

const USAGE = [
  'usage: npm run lexdesk -- export --org SLUG --out FILE.zip [--embeddings]',
  '       npm run lexdesk -- clone --org SLUG --name NAME [--no-buckets]',
].join('\n')
const [command, ...rest] = process.argv.slice(2)
const { values } = parseArgs({
  args: rest,
  options: {
    org: { type: 'string' },
    out: { type: 'string' },
    embeddings: { type: 'boolean', default: false },
    name: { type: 'string' },
    // Node 20's parseArgs has no negated options: '--no-buckets' is an option of its own.
    'no-buckets': { type: 'boolean', default: false },
  },
})
const exporting = command === 'export' && values.out
const cloning = command === 'clone' && values.name
if (!values.org || !(exporting || cloning)) {
  process.stderr.write(`${USAGE}\n`)
  process.exit(2)
}

const config = loadConfig()
await mkdir(config.dataDir, { recursive: true })
const pool = new WorkerPool({ threads: 1 })
const database = await openDatabase(config)
try {
  const blobs = config.s3
    ? createS3BlobStore(createS3Client(config.s3), config.s3)
    : createFsBlobStore(path.join(config.dataDir, 'blobs'))
  const embedderId = createEmbedder(config.ai.embed, pool, config.embedDimensions).id
  const progress = (message: string) => process.stdout.write(`${message}\n`)
  if (cloning) {
    const copy = await cloneFromCommand(
      {
        db: database.db,
        blobs,
        engines: { embedder: { id: embedderId } },
        limits: { importMaxBytes: config.importMaxBytes },
      },
      { org: values.org, name: values.name!, cloneBuckets: !values['no-buckets'] },
      progress,
    )
    process.stdout.write(`${JSON.stringify(copy)}\n`)
  } else {
    const summary = await exportToFile(
      { db: database.db, blobs, embedderId },
      { org: values.org, out: values.out!, includeEmbeddings: values.embeddings },
      progress,
    )
    process.stdout.write(`${JSON.stringify({ out: values.out, ...summary })}\n`)
  }
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
} finally {
  await database.close()
  await pool.close()
}

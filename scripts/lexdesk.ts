/**
 * The operator's command line (issue 27), running the server's own code without the web server
 * (stop the server first on embedded PGlite, which one process owns):
 *
 *   npm run lexdesk -- export --org SLUG --out FILE.zip [--embeddings]
 *   npm run lexdesk -- import --file FILE.zip --org-name NAME --owner EMAIL
 *   npm run lexdesk -- import --file FILE.zip --org SLUG
 *   npm run lexdesk -- clone --org SLUG --name NAME [--no-buckets]
 *
 * An import's or a clone's indexing jobs are queued for the server to run when it starts. `--owner EMAIL`
 * names an account, or creates it as a first sign-in would (a fresh install has none). Each
 * command ends by printing the organisation's slug and id (the next command's `--org SLUG`),
 * then its result as JSON.
 */
import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../server/config'
import { openDatabase } from '../server/db/client'
import { createFsBlobStore } from '../server/blob/fs-blob-store'
import { createS3BlobStore, createS3Client } from '../server/blob/s3-blob-store'
import { createEmbedder } from '../server/ai/embedder/create-embedder'
import { WorkerPool } from '../server/workers/worker-pool'
import { exportToFile } from '../server/features/archives/export-command'
import { importFromFile } from '../server/features/archives/import-command'
import { cloneFromCommand } from '../server/features/archives/clone-command'
import { JobRunner } from '../server/jobs/job-runner'
import { JOB_CATALOGUE } from '../server/job-catalogue'
import { createAuth } from '../server/auth/auth'
import { createLogger } from '../server/http/logger'

const USAGE = [
  'usage: npm run lexdesk -- export --org SLUG --out FILE.zip [--embeddings]',
  '       npm run lexdesk -- import --file FILE.zip (--org-name NAME --owner EMAIL | --org SLUG)',
  '       npm run lexdesk -- clone --org SLUG --name NAME [--no-buckets]',
].join('\n')
const [command, ...rest] = process.argv.slice(2)
const { values } = parseArgs({
  args: rest,
  options: {
    org: { type: 'string' },
    out: { type: 'string' },
    embeddings: { type: 'boolean', default: false },
    file: { type: 'string' },
    'org-name': { type: 'string' },
    owner: { type: 'string' },
    name: { type: 'string' },
    // Node 20's parseArgs has no negated options: '--no-buckets' is an option of its own.
    'no-buckets': { type: 'boolean', default: false },
  },
})
const exporting = command === 'export' && values.org && values.out
const importing = command === 'import' && values.file && (values.org ?? values['org-name'])
const cloning = command === 'clone' && values.org && values.name
if (!exporting && !importing && !cloning) {
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
  const print = (message: string) => process.stdout.write(`${message}\n`)
  // Queues jobs (an import's or a clone's indexing) for the server to run when it starts.
  const jobs = new JobRunner({
    db: database.db,
    catalogue: JOB_CATALOGUE,
    log: { info: () => {}, warn: console.warn, error: console.error },
  })
  const printOrg = (org: { slug: string; orgId: string }) =>
    print(`Organisation: ${org.slug} (id ${org.orgId}); next: --org ${org.slug}`)
  if (command === 'export') {
    const summary = await exportToFile(
      { db: database.db, blobs, embedderId },
      { org: values.org!, out: values.out!, includeEmbeddings: values.embeddings },
      print,
    )
    printOrg(summary)
    print(JSON.stringify({ out: values.out, ...summary }))
  } else if (command === 'clone') {
    const copy = await cloneFromCommand(
      {
        db: database.db,
        blobs,
        jobs,
        engines: { embedder: { id: embedderId } },
        limits: { importMaxBytes: config.importMaxBytes },
      },
      { org: values.org!, name: values.name!, cloneBuckets: !values['no-buckets'] },
      print,
    )
    printOrg(copy)
    print(JSON.stringify(copy))
  } else {
    // better-auth, only to create an owner's account as a first sign-in does: it mails nothing
    // and signs nothing here, so a random secret stands in when LEXDESK_SECRET is unset.
    const auth = createAuth({
      db: database.db,
      mailer: {
        outbox: [],
        send: () => Promise.reject(new Error('The command line sends no mail.')),
      },
      secret: config.secret ?? randomBytes(32).toString('base64url'),
      publicUrl: config.publicUrl,
      log: createLogger({ level: 'warn' }),
      maxOrganizationsPerUser: config.maxOrganizationsPerUser,
    })
    const result = await importFromFile(
      {
        db: database.db,
        blobs,
        jobs,
        auth,
        engines: { embedder: { id: embedderId } },
        limits: { importMaxBytes: config.importMaxBytes },
      },
      { file: values.file!, orgName: values['org-name'], org: values.org, owner: values.owner },
      print,
    )
    if (result.owner?.created) print(`Created the account of ${result.owner.email} (its owner).`)
    printOrg(result)
    print(JSON.stringify(result))
  }
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
} finally {
  await database.close()
  await pool.close()
}

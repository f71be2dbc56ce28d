/**
 * The common start of eval:retrieval and eval:nli: reads the ContractNLI file named on the command
 * line (https://stanfordnlp.github.io/contract-nli/; exits 1 with the usage of `command` when it
 * is missing) and opens an in-memory database holding the 'eval' organisation, with the documents
 * table's triggers off (a bulk load: no library counters or chunk jobs while the NDAs are
 * indexed), and the configured embedder on a one-thread pool. `close()` ends both. `given`, when
 * passed, is the corpus instead of the file (eval:retrieval's fixture-free `--reworded` check).
 */
import { existsSync, readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { openPglite, type Db } from '../server/db/client'
import { organization } from '../server/db/schema'
import type { Principal } from '../server/db/tenant'
import { loadConfig } from '../server/config'
import { createEmbedder } from '../server/ai/embedder/create-embedder'
import type { Embedder } from '../server/ai/embedder/types'
import { WorkerPool } from '../server/workers/worker-pool'

/** The parts of a ContractNLI file the evaluations read. */
export interface ContractNli {
  documents: Array<{
    id: number
    text: string
    spans: Array<[number, number]>
    annotation_sets: Array<{ annotations: Record<string, { choice: string; spans: number[] }> }>
  }>
  labels: Record<string, { hypothesis: string }>
}

export interface EvalCorpus {
  data: ContractNli
  db: Db
  embedder: Embedder
  /** The 'eval' organisation's system principal the NDAs are stored and searched as. */
  principal: Principal
  close(): Promise<void>
}

export async function openEvalCorpus(command: string, given?: ContractNli): Promise<EvalCorpus> {
  const argv = process.argv.slice(2)
  // The value of `--engine` (eval:nli, eval-engine.ts) is not the file.
  const file = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--engine')
  if (!given && (!file || !existsSync(file))) {
    process.stderr.write(
      `error: ${file ? `file not found: ${file}` : 'missing FILE'}.\nusage: npm run ${command} -- ../shared/fixtures/contract-nli/dev.json (the fixtures live outside the repository)\n`,
    )
    process.exit(1)
  }
  const data = given ?? (JSON.parse(readFileSync(file ?? '', 'utf8')) as ContractNli)
  const config = loadConfig()
  const pool = new WorkerPool({ threads: 1 })
  const embedder = createEmbedder(config.ai.embed, pool, config.embedDimensions)
  const database = await openPglite({})
  const db = database.db
  await db.insert(organization).values({ id: 'eval', name: 'Evaluation', slug: 'eval' })
  await db.execute(sql`alter table documents disable trigger user`)
  const principal: Principal = { orgId: 'eval', userId: null, role: 'member', actorType: 'system' }
  return {
    data,
    db,
    embedder,
    principal,
    async close() {
      await database.close()
      await pool.close()
    },
  }
}

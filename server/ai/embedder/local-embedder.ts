/**
 * The `local` Embedder (default, offline): 384-dimension vectors from committed word vectors and
 * hashed words and trigrams (local/local-embedding.ts, decision 0016). A few short texts (a
 * query) are embedded in-process (~0.1 ms each); larger batches run on the shared WorkerPool.
 */
import { poolTask, type WorkerPool } from '../../workers/worker-pool'
import { embedLocal, LOCAL_DIM } from './local/local-embedding'
import { wordTable } from './local/word-table'
import type { Embedder } from './types'

/** The embedding task; stopped at a pool limit, it fails its job (indexing) for good. */
const EMBED = poolTask<{ texts: string[] }, number[][]>(
  new URL('./local/embed-task.ts', import.meta.url),
  'embedTextsTask',
  {
    timeout: {
      code: 'embedding_failed',
      detail:
        'Indexing this text took longer than the server allows (WORKER_TASK_TIMEOUT_S), so it was stopped.',
    },
    out_of_memory: {
      code: 'embedding_failed',
      detail:
        'Indexing this text needed more memory than a worker may use (WORKER_HEAP_MB), so it was stopped.',
    },
  },
)

/** Texts up to this many characters in total are embedded on the calling thread. */
const IN_PROCESS_CHARS = 4_000

export class LocalEmbedder implements Embedder {
  /**
   * ppmi-2: word vectors trained on the 351 CUAD contracts and ContractNLI's 61 development NDAs
   * (`npm run train:embeddings -- --nli …/dev.json`, decision 0117); ppmi-1 had CUAD alone.
   * Bumped with every retrain, so vectors of two trainings are never compared (decision 16).
   */
  readonly id = `local:lexdesk-ppmi-2:${LOCAL_DIM}`
  readonly dim = LOCAL_DIM

  constructor(private readonly pool: WorkerPool) {}

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const chars = texts.reduce((n, t) => n + t.length, 0)
    if (chars <= IN_PROCESS_CHARS) {
      const table = wordTable()
      return texts.map((text) => embedLocal(table, text))
    }
    return this.pool.run(EMBED, { texts: [...texts] }, { signal })
  }
}

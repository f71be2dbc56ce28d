/** Chooses the embedding engine from its configuration (AI_EMBED_ENGINE or AI_ENGINE, see config.ts). */
import type { EngineConfig } from '../../config'
import type { WorkerPool } from '../../workers/worker-pool'
import { LocalEmbedder } from './local-embedder'
import { OpenAIEmbedder } from './openai-embedder'
import type { Embedder } from './types'

/** 'local' → LocalEmbedder on `pool`; 'openai' → OpenAIEmbedder of `dim` dimensions. */
export function createEmbedder(config: EngineConfig, pool: WorkerPool, dim: number): Embedder {
  if (config.engine === 'local') return new LocalEmbedder(pool)
  return new OpenAIEmbedder({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    dim,
  })
}

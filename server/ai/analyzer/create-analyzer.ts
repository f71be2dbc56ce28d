/** Chooses the analysis engine from its configuration (AI_ANALYSIS_ENGINE or AI_ENGINE, see config.ts). */
import type { EngineConfig } from '../../config'
import type { WorkerPool } from '../../workers/worker-pool'
import { LocalAnalyzer } from './local-analyzer'
import { OpenAIAnalyzer } from './openai-analyzer'
import { OpenAIColumnReader } from './openai-column-reader'
import type { ColumnReader } from './column-reader'
import type { Analyzer } from './types'

/**
 * Builds the configured Analyzer: 'local' → LocalAnalyzer on the shared `pool` (no network);
 * 'openai' → OpenAIAnalyzer against any OpenAI-compatible endpoint, reading at most
 * `contextChars` (AI_ANALYSIS_CONTEXT_CHARS) of a document per request. The configuration was
 * validated by loadConfig, so this never throws.
 */
export function createAnalyzer(config: EngineConfig, pool: WorkerPool): Analyzer {
  if (config.engine === 'local') return new LocalAnalyzer(pool)
  return new OpenAIAnalyzer({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    contextChars: config.contextChars,
  })
}

/**
 * The column reader of the configured analysis engine (decision 0142): null for 'local' (the
 * reviews feature answers custom columns by rule offline), else an OpenAIColumnReader on the same
 * endpoint, model and context (`contextChars`) as the analyzer. Never throws.
 */
export function createColumnReader(config: EngineConfig): ColumnReader | null {
  if (config.engine === 'local') return null
  return new OpenAIColumnReader({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    contextChars: config.contextChars,
  })
}

/** Chooses the analysis engine from configuration (AI_ENGINE, AI_BASE_URL, AI_API_KEY, AI_CHAT_MODEL). */
import { LocalAnalyzer } from './local-analyzer'
import { OpenAIAnalyzer } from './openai-analyzer'
import type { Analyzer } from './types'

/** Engine configuration as loaded by server/config.ts. */
export interface AnalyzerConfig {
  engine: 'local' | 'openai'
  baseUrl?: string
  apiKey?: string
  chatModel?: string
}

/**
 * Builds the configured Analyzer: 'local' → LocalAnalyzer (worker thread, no network); 'openai' →
 * OpenAIAnalyzer against any OpenAI-compatible endpoint. Throws an Error naming the missing
 * setting when 'openai' lacks a base URL or a chat model. Call `close()` on shutdown.
 */
export function createAnalyzer(config: AnalyzerConfig): Analyzer {
  if (config.engine === 'local') return new LocalAnalyzer()
  const missing = [!config.baseUrl && 'AI_BASE_URL', !config.chatModel && 'AI_CHAT_MODEL'].filter(
    Boolean,
  )
  if (missing.length > 0 || !config.baseUrl || !config.chatModel) {
    throw new Error(`The openai analysis engine needs ${missing.join(' and ')} to be set.`)
  }
  return new OpenAIAnalyzer({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.chatModel,
  })
}

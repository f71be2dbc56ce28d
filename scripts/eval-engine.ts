/**
 * The engine an evaluation scores (decision 0116): `--engine local` (the default, no network) or
 * `--engine openai`, the OpenAI-compatible model a firm points Lexdesk at, read from the same
 * variables the server reads (server/config.ts): AI_<CAP>_BASE_URL or AI_BASE_URL, AI_<CAP>_MODEL
 * (analysis falls back to AI_CHAT_MODEL), AI_<CAP>_API_KEY or AI_API_KEY, and for analysis
 * AI_ANALYSIS_CONTEXT_CHARS, as if AI_<CAP>_ENGINE were `openai`. Used by eval:cuad and
 * eval:summary (capability `analysis`) and eval:nli (capability `chat`); each prints the engine
 * and model it scored in its JSON line.
 */
import { loadConfig, type EngineConfig } from '../server/config'
import { analyzeLocal } from '../server/ai/analyzer/local/analyze-local'
import { OpenAIAnalyzer } from '../server/ai/analyzer/openai-analyzer'
import type { AnalysisKind, AnalysisResult } from '../server/ai/analyzer/types'
import { OpenAIChat } from '../server/ai/chat/openai-chat'

export const EVAL_ENGINES = ['local', 'openai'] as const
export type EvalEngineName = (typeof EVAL_ENGINES)[number]

/** The `--engine` option as usage text. */
export const ENGINE_USAGE = '[--engine local|openai]'

/** The engine named by `--engine` (default local); exits 1 with `usage` for any other value. */
export function evalEngineName(args: ReadonlyMap<string, string>, usage: string): EvalEngineName {
  const name = args.get('engine') ?? 'local'
  if ((EVAL_ENGINES as readonly string[]).includes(name)) return name as EvalEngineName
  fail(`--engine must be local or openai, not ${JSON.stringify(name)}`, usage)
}

/**
 * The openai engine of `capability` as the server would configure it; exits 1 with `usage`,
 * naming the missing variables (never their values), when the configuration is incomplete.
 */
export function openaiEngineConfig(
  capability: 'analysis' | 'chat',
  usage: string,
): Extract<EngineConfig, { engine: 'openai' }> {
  let config: EngineConfig
  try {
    config = loadConfig({ ...process.env, [`AI_${capability.toUpperCase()}_ENGINE`]: 'openai' }).ai[
      capability
    ]
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), usage)
  }
  if (config.engine !== 'openai') fail(`the ${capability} engine is not configured`, usage)
  return config
}

/** An analysis engine to score: what it is, and how to run it. */
export interface EvalAnalyzer {
  engine: EvalEngineName
  model: string
  analyze(content: string, kind: AnalysisKind): Promise<AnalysisResult>
  /** Findings the engine dropped so far because their quotes are not in the text (openai). */
  droppedUnverified(): number
}

/** The analysis engine `--engine` names (see the top of this file). */
export function evalAnalyzer(args: ReadonlyMap<string, string>, usage: string): EvalAnalyzer {
  if (evalEngineName(args, usage) === 'local') {
    const probe = analyzeLocal('', 'summarize')
    return {
      engine: 'local',
      model: probe.model,
      analyze: (content, kind) => Promise.resolve(analyzeLocal(content, kind)),
      droppedUnverified: () => 0,
    }
  }
  const config = openaiEngineConfig('analysis', usage)
  const analyzer = new OpenAIAnalyzer({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    contextChars: config.contextChars,
  })
  let dropped = 0
  return {
    engine: 'openai',
    model: config.model,
    async analyze(content, kind) {
      const result = await analyzer.analyze(content, kind)
      dropped += result.droppedUnverified ?? 0
      return result
    },
    droppedUnverified: () => dropped,
  }
}

/** The openai chat engine eval:nli scores with `--engine openai`. */
export function evalChat(usage: string): OpenAIChat {
  const config = openaiEngineConfig('chat', usage)
  return new OpenAIChat({ baseURL: config.baseUrl, apiKey: config.apiKey, model: config.model })
}

function fail(message: string, usage: string): never {
  process.stderr.write(`error: ${message}\n${usage}\n`)
  process.exit(1)
}

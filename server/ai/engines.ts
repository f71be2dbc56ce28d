/**
 * The AI engines of one server, built once from configuration and handed to features through
 * AppServices. A new capability (transcriber, speaker, embedder, chat) is one field here and one
 * line in createEngines.
 */
import type { Capability, EngineConfig } from '../config'
import type { WorkerPool } from '../workers/worker-pool'
import { createAnalyzer, createColumnReader } from './analyzer/create-analyzer'
import type { ColumnReader } from './analyzer/column-reader'
import type { Analyzer } from './analyzer/types'
import { createSpeaker, createTranscriber } from './speech/create-speech'
import type { Speaker, Transcriber } from './speech/types'
import { createEmbedder } from './embedder/create-embedder'
import type { Embedder } from './embedder/types'
import { createChat } from './chat/create-chat'
import type { ChatEngine } from './chat/types'

export interface Engines {
  analyzer: Analyzer
  /**
   * A review's custom columns in one structured request per document (decision 0142), on the
   * analysis engine's configuration (AI_ANALYSIS_ENGINE); null when that engine is local.
   */
  columnReader: ColumnReader | null
  /** Speech to text (AI_STT_ENGINE); the local one runs ffmpeg and PocketSphinx as child processes. */
  transcriber: Transcriber
  /** Text to speech (AI_TTS_ENGINE); the local one runs espeak-ng and ffmpeg as child processes. */
  speaker: Speaker
  /** Passage embeddings (AI_EMBED_ENGINE) for search by meaning. */
  embedder: Embedder
  /** The assistant's cited answers over the organisation's passages (AI_CHAT_ENGINE). */
  chat: ChatEngine
}

/** Builds every engine; local engines run their CPU-heavy work on `pool`. */
export function createEngines(
  ai: Record<Capability, EngineConfig>,
  pool: WorkerPool,
  options: { embedDimensions?: number } = {},
): Engines {
  return {
    analyzer: createAnalyzer(ai.analysis, pool),
    columnReader: createColumnReader(ai.analysis),
    transcriber: createTranscriber(ai.stt, pool),
    speaker: createSpeaker(ai.tts, pool),
    embedder: createEmbedder(ai.embed, pool, options.embedDimensions ?? 384),
    chat: createChat(ai.chat),
  }
}

/** Releases engine resources (sockets, models); local engines hold none beyond the pool. */
export async function closeEngines(engines: Engines): Promise<void> {
  await Promise.all(
    Object.values(engines).map((engine: { close?: () => Promise<void> } | null) =>
      engine?.close?.(),
    ),
  )
}

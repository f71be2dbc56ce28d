/** Chooses the speech engines from their configuration (AI_STT_ENGINE / AI_TTS_ENGINE or AI_ENGINE, see config.ts). */
import type { EngineConfig } from '../../config'
import { LocalSpeaker } from './local-speaker'
import { LocalTranscriber } from './local-transcriber'
import { OpenAISpeaker, OpenAITranscriber } from './openai-speech'
import type { WorkerPool } from '../../workers/worker-pool'
import type { Speaker, Transcriber } from './types'

/**
 * 'local' → PocketSphinx through ffmpeg (child processes on slots of `pool`); 'openai' →
 * `/v1/audio/transcriptions`.
 */
export function createTranscriber(config: EngineConfig, pool: WorkerPool): Transcriber {
  if (config.engine === 'local') return new LocalTranscriber(pool)
  return new OpenAITranscriber({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
  })
}

/**
 * 'local' → espeak-ng and ffmpeg (child processes on slots of `pool`); 'openai' →
 * `/v1/audio/speech`.
 */
export function createSpeaker(config: EngineConfig, pool: WorkerPool): Speaker {
  if (config.engine === 'local') return new LocalSpeaker(pool)
  return new OpenAISpeaker({ baseURL: config.baseUrl, apiKey: config.apiKey, model: config.model })
}

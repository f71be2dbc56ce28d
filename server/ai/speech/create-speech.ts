/** Chooses the speech engines from their configuration (AI_STT_ENGINE / AI_TTS_ENGINE or AI_ENGINE, see config.ts). */
import type { EngineConfig } from '../../config'
import { LocalSpeaker } from './local-speaker'
import { LocalTranscriber } from './local-transcriber'
import { OpenAISpeaker, OpenAITranscriber } from './openai-speech'
import type { Speaker, Transcriber } from './types'

/** 'local' → PocketSphinx through ffmpeg (child processes); 'openai' → `/v1/audio/transcriptions`. */
export function createTranscriber(config: EngineConfig): Transcriber {
  if (config.engine === 'local') return new LocalTranscriber()
  return new OpenAITranscriber({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
  })
}

/** 'local' → espeak-ng and ffmpeg (child processes); 'openai' → `/v1/audio/speech`. */
export function createSpeaker(config: EngineConfig): Speaker {
  if (config.engine === 'local') return new LocalSpeaker()
  return new OpenAISpeaker({ baseURL: config.baseUrl, apiKey: config.apiKey, model: config.model })
}

/** Chooses the chat engine from its configuration (AI_CHAT_ENGINE or AI_ENGINE, see config.ts). */
import type { EngineConfig } from '../../config'
import { LocalChat } from './local-chat'
import { OpenAIChat } from './openai-chat'
import type { ChatEngine } from './types'

export function createChat(config: EngineConfig): ChatEngine {
  if (config.engine === 'local') return new LocalChat()
  return new OpenAIChat({ baseURL: config.baseUrl, apiKey: config.apiKey, model: config.model })
}

/** Chooses the demo assistant's answering engine from the chat capability (AI_CHAT_ENGINE or AI_ENGINE). */
import type { EngineConfig } from '../../config'
import { answerLocally, type Answer } from './answer-question'
import { OpenAIAnswerer } from './openai-answerer'

/** Answers a plain-language legal question; see answer-question.ts and openai-answerer.ts. */
export interface Answerer {
  answer(question: string): Promise<Answer>
}

/** 'local' → the built-in explanations; 'openai' → the chat model, given them as sources. */
export function createAnswerer(config: EngineConfig): Answerer {
  if (config.engine === 'local')
    return { answer: (question) => Promise.resolve(answerLocally(question)) }
  return new OpenAIAnswerer({ baseURL: config.baseUrl, apiKey: config.apiKey, model: config.model })
}

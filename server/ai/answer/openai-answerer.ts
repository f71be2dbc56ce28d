/**
 * The demo assistant's answers from any OpenAI-compatible chat endpoint (AI_CHAT_ENGINE=openai):
 * the model is given the built-in explanations as its sources and asked for a short plain-language
 * answer that names the source it used, or says it cannot answer. A provider failure rejects with
 * an Error whose message may name internal hosts (callers show a fixed message).
 */
import OpenAI from 'openai'
import type { Answer } from './answer-question'
import { LEGAL_EXPLANATIONS } from './legal-explanations'

const SYSTEM_PROMPT = [
  'You are a legal information assistant for the public demo of a law-firm product.',
  'Answer the question in at most four plain sentences, for a non-lawyer, using only the sources below.',
  'End with "(Source: <title>)" naming the source you used. If no source covers the question, say that you cannot answer it from your sources.',
  'This is general information, not legal advice.',
  '',
  ...LEGAL_EXPLANATIONS.map((e) => `Source "${e.title}": ${e.text}`),
].join('\n')

export class OpenAIAnswerer {
  private readonly client: OpenAI
  constructor(private readonly options: { baseURL: string; apiKey?: string; model: string }) {
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || 'not-needed',
      maxRetries: 0,
      timeout: 60_000,
    })
  }

  async answer(question: string): Promise<Answer> {
    const completion = await this.client.chat.completions.create({
      model: this.options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: question },
      ],
    })
    const text = completion.choices[0]?.message.content?.trim() ?? ''
    if (!text) throw new Error('the model returned no answer')
    const sources = LEGAL_EXPLANATIONS.filter((e) => text.includes(e.title)).map((e) => ({
      id: e.id,
      title: e.title,
    }))
    return { answer: text, answered: sources.length > 0, sources, engine: 'openai' }
  }
}

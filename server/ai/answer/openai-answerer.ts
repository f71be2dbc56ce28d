/**
 * The demo assistant's answers from any OpenAI-compatible chat endpoint (AI_CHAT_ENGINE=openai):
 * the model is given the built-in explanations as its sources and answers through structured
 * output (decision 0116) with a short plain-language answer and, for each source it used, the
 * sentence it relied on copied from that source. Each quote is checked verbatim against the named
 * source; a source whose quote is not in it is dropped and counted (`droppedUnverified`), and an
 * answer left without a verified source is not given: the assistant says it cannot answer. A
 * provider failure or an answer of the wrong shape rejects with an Error whose message may name
 * internal hosts (callers show a fixed message).
 */
import OpenAI from 'openai'
import { z } from 'zod'
import { StructuredCompletion } from '../analyzer/openai/structured-completion'
import { locateQuote } from '../analyzer/shared/citations'
import { CANNOT_ANSWER, type Answer } from './answer-question'
import { LEGAL_EXPLANATIONS } from './legal-explanations'

const SYSTEM_PROMPT = [
  'You are a legal information assistant for the public demo of a law-firm product.',
  'Answer the question in at most four plain sentences, for a non-lawyer, using only the sources below.',
  'For each source you used, give its title and the sentence you relied on, copied character for character from it. If no source covers the question, set answered to false and give no sources.',
  'This is general information, not legal advice.',
  '',
  ...LEGAL_EXPLANATIONS.map((e) => `Source "${e.title}": ${e.text}`),
].join('\n')

const AnswerOutput = z.object({
  answered: z.boolean(),
  answer: z.string(),
  sources: z.array(
    z.object({
      title: z.enum(LEGAL_EXPLANATIONS.map((e) => e.title) as [string, ...string[]]),
      quote: z.string(),
    }),
  ),
})

/** An answer and the number of sources dropped because their quotes were not in them. */
export type VerifiedAnswer = Answer & { droppedUnverified: number }

export class OpenAIAnswerer {
  private readonly structured: StructuredCompletion
  constructor(private readonly options: { baseURL: string; apiKey?: string; model: string }) {
    this.structured = new StructuredCompletion(
      new OpenAI({
        baseURL: options.baseURL,
        apiKey: options.apiKey || 'not-needed',
        maxRetries: 0,
        timeout: 60_000,
      }),
    )
  }

  async answer(question: string): Promise<VerifiedAnswer> {
    const output = await this.structured.request({
      model: this.options.model,
      name: 'demo_answer',
      schema: AnswerOutput,
      system: SYSTEM_PROMPT,
      user: question,
    })
    let droppedUnverified = 0
    const sources: Answer['sources'] = []
    for (const source of output.sources) {
      const explanation = LEGAL_EXPLANATIONS.find((e) => e.title === source.title)
      if (!explanation || !locateQuote(explanation.text, source.quote)) {
        droppedUnverified += 1
        continue
      }
      if (!sources.some((s) => s.id === explanation.id))
        sources.push({ id: explanation.id, title: explanation.title })
    }
    const answered = output.answered && sources.length > 0 && output.answer.trim() !== ''
    return answered
      ? { answer: output.answer.trim(), answered, sources, engine: 'openai', droppedUnverified }
      : { answer: CANNOT_ANSWER, answered, sources: [], engine: 'openai', droppedUnverified }
  }
}

/**
 * The analysis engine for any OpenAI-compatible chat endpoint (OpenAI, Azure, vLLM, Ollama, …).
 * The model is asked for JSON that quotes the document instead of giving offsets, because models
 * count characters badly; every quote is then located in the content to compute its span.
 */
import OpenAI from 'openai'
import { z } from 'zod'
import { emptyKeyTerms, emptySummary } from './empty-result'
import { DETECTED_CATEGORIES } from './shared/cuad-taxonomy'
import { ABSENT_CLAUSE, locateQuote } from './shared/citations'
import { RISK_CODES } from './shared/risk-codes'
import {
  Severity,
  type AnalysisKind,
  type AnalysisResult,
  type Analyzer,
  type AnalyzeOptions,
  type Clause,
  type KeyTerm,
  type KeyTerms,
  type QuotedSpan,
  type Risk,
} from './types'

/** Characters of the document sent to the model; longer documents are cut (context windows are finite). */
const DEFAULT_MAX_INPUT_CHARS = 100_000

/** Per-request timeout in milliseconds: a full analysis of a long contract can take a minute. */
const DEFAULT_TIMEOUT_MS = 120_000

const QuotedTerm = z.object({ value: z.string().min(1), quote: z.string().min(1) }).nullish()

/** What the model must return; every part is optional so that a kind can ask for only some. */
const ModelOutput = z.object({
  summary: z.array(z.string()).default([]),
  clauses: z
    .array(
      z.object({
        category: z.string(),
        quote: z.string().min(1),
        confidence: z.number().min(0).max(1).default(0.5),
      }),
    )
    .default([]),
  risks: z
    .array(
      z.object({
        code: z.string(),
        severity: Severity,
        title: z.string(),
        explanation: z.string(),
        binds: z.array(z.string()).optional(),
        quote: z.string().nullish(),
      }),
    )
    .default([]),
  keyTerms: z
    .object({
      parties: z.array(z.object({ name: z.string().min(1), quote: z.string().min(1) })).default([]),
      agreementDate: QuotedTerm,
      effectiveDate: QuotedTerm,
      expirationDate: QuotedTerm,
      governingLaw: QuotedTerm,
      renewalTerm: QuotedTerm,
      noticePeriod: QuotedTerm,
    })
    .partial()
    .default({ parties: [] }),
})
type ModelOutput = z.infer<typeof ModelOutput>

const TERM_NAMES = [
  'agreementDate',
  'effectiveDate',
  'expirationDate',
  'governingLaw',
  'renewalTerm',
  'noticePeriod',
] as const satisfies readonly (keyof KeyTerms)[]

/** Constructor options; `apiKey` may be omitted for local servers that do not check it. */
export interface OpenAIAnalyzerOptions {
  baseURL: string
  apiKey?: string
  model: string
  maxInputChars?: number
  timeoutMs?: number
}

/**
 * Analyses documents with a chat model through the official `openai` SDK.
 *
 * One request per analysis (response_format json_object), retried once when the provider fails or
 * the output is not valid JSON of the expected shape; after that `analyze` rejects with
 * Error("The AI provider failed: …"). An aborted `signal` rejects at once, without retry. Quotes
 * are located exactly, then ignoring whitespace differences; findings whose quote cannot be found
 * are dropped, and a risk without a quote (an absent clause) is marked absent, without a citation.
 */
export class OpenAIAnalyzer implements Analyzer {
  readonly engine = 'openai'
  private readonly client: OpenAI
  private readonly model: string
  private readonly maxInputChars: number

  constructor(options: OpenAIAnalyzerOptions) {
    this.model = options.model
    this.maxInputChars = options.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS
    this.client = new OpenAI({
      baseURL: options.baseURL,
      // The SDK insists on a key; self-hosted endpoints usually ignore it.
      apiKey: options.apiKey || 'not-needed',
      // Retries are ours (one, covering invalid output too), so the SDK's are off.
      maxRetries: 0,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    })
  }

  async analyze(
    content: string,
    kind: AnalysisKind,
    options: AnalyzeOptions = {},
  ): Promise<AnalysisResult> {
    const { signal } = options
    const started = performance.now()
    let lastError: unknown
    for (let attempt = 0; attempt < 2; attempt += 1) {
      signal?.throwIfAborted()
      try {
        const output = await this.request(content, kind, signal, options.ourParty)
        return {
          ...toResult(content, kind, output),
          engine: this.engine,
          model: this.model,
          durationMs: performance.now() - started,
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        lastError = error
      }
    }
    const detail = lastError instanceof Error ? lastError.message : String(lastError)
    throw new Error(`The AI provider failed: ${detail}`)
  }

  private async request(
    content: string,
    kind: AnalysisKind,
    signal: AbortSignal | undefined,
    ourParty: string | undefined,
  ): Promise<ModelOutput> {
    const completion = await this.client.chat.completions.create(
      {
        model: this.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: systemPrompt(kind, ourParty) },
          { role: 'user', content: content.slice(0, this.maxInputChars) },
        ],
      },
      { signal },
    )
    const text = completion.choices[0]?.message.content
    if (!text) throw new Error('the model returned no content')
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new Error('the model did not return valid JSON')
    }
    const parsed = ModelOutput.safeParse(json)
    if (!parsed.success)
      throw new Error(
        `the model's JSON did not match the expected shape (${parsed.error.issues[0]?.message ?? 'invalid'})`,
      )
    return parsed.data
  }
}

/** Instructions for `kind`: the JSON keys to return, and the rule that every quote is verbatim. */
function systemPrompt(kind: AnalysisKind, ourParty: string | undefined): string {
  const parts: string[] = []
  if (kind === 'summarize' || kind === 'full') {
    parts.push(
      '"summary": an array of 3 to 7 sentences copied verbatim from the document that together summarise it.',
    )
  }
  if (kind === 'clauses' || kind === 'full') {
    parts.push(
      `"clauses": an array of {"category", "quote", "confidence"} where category is one of ${JSON.stringify(DETECTED_CATEGORIES)}, quote is the clause copied verbatim, confidence is 0..1.`,
      '"keyTerms": {"parties": [{"name", "quote"}], "agreementDate", "effectiveDate", "expirationDate", "governingLaw", "renewalTerm", "noticePeriod"}; each term is {"value", "quote"} or null. Dates as YYYY-MM-DD, governing law as the jurisdiction name (e.g. "New York"), durations like "1 year" or "90 days".',
    )
  }
  if (kind === 'risks' || kind === 'full') {
    parts.push(
      `"risks": an array of {"code", "severity", "title", "explanation", "binds", "quote"} where code is one of ${JSON.stringify(RISK_CODES)} (or a short kebab-case code), severity is "low", "medium" or "high", explanation is one plain sentence on why it matters, binds lists the names of the parties the passage burdens, and quote is the passage copied verbatim, or null when the risk is that a clause is missing.`,
    )
    if (ourParty)
      parts.push(
        `The firm acts for the party ${JSON.stringify(ourParty)}: rate a risk that binds only the other side "low", and one that binds this party by its effect on this party.`,
      )
  }
  return [
    'You are a careful commercial contracts lawyer. Read the contract in the user message and answer with a single JSON object with these keys:',
    ...parts,
    'Every "quote" must be copied character for character from the contract, never paraphrased. Do not invent content.',
  ].join('\n')
}

/** Maps the model's quotes onto spans of `content`, dropping what cannot be located. */
function toResult(
  content: string,
  kind: AnalysisKind,
  output: ModelOutput,
): Omit<AnalysisResult, 'engine' | 'model' | 'durationMs'> {
  const wantsSummary = kind === 'summarize' || kind === 'full'
  const wantsClauses = kind === 'clauses' || kind === 'full'
  const wantsRisks = kind === 'risks' || kind === 'full'
  const summarySentences = wantsSummary
    ? quotedSpans(content, output.summary).sort((a, b) => a.start - b.start)
    : []
  return {
    summary: wantsSummary
      ? { text: summarySentences.map((s) => s.text).join(' '), sentences: summarySentences }
      : emptySummary(),
    clauses: wantsClauses ? clausesOf(content, output) : [],
    risks: wantsRisks ? risksOf(content, output) : [],
    keyTerms: wantsClauses ? keyTermsOf(content, output) : emptyKeyTerms(),
  }
}

function clausesOf(content: string, output: ModelOutput): Clause[] {
  return output.clauses
    .flatMap((clause) => {
      const span = locateQuote(content, clause.quote)
      return span
        ? [
            {
              ...span,
              text: content.slice(span.start, span.end),
              category: clause.category,
              confidence: clause.confidence,
            },
          ]
        : []
    })
    .sort((a, b) => a.start - b.start)
}

function risksOf(content: string, output: ModelOutput): Risk[] {
  return output.risks.flatMap(({ quote, ...risk }) => {
    const span = quote ? locateQuote(content, quote) : ABSENT_CLAUSE
    return span ? [{ ...risk, ...span }] : []
  })
}

function keyTermsOf(content: string, output: ModelOutput): KeyTerms {
  const terms = output.keyTerms
  const result = emptyKeyTerms()
  result.parties = (terms.parties ?? []).flatMap((party) => {
    const span = locateQuote(content, party.quote)
    return span ? [{ name: party.name, ...span }] : []
  })
  for (const name of TERM_NAMES) {
    const term = terms[name]
    const span = term ? locateQuote(content, term.quote) : null
    result[name] = term && span ? ({ value: term.value, ...span } satisfies KeyTerm) : null
  }
  return result
}

function quotedSpans(content: string, quotes: readonly string[]): QuotedSpan[] {
  return quotes.flatMap((quote) => {
    const span = locateQuote(content, quote)
    return span ? [{ ...span, text: content.slice(span.start, span.end) }] : []
  })
}

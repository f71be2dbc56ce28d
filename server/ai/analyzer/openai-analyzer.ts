/**
 * The analysis engine for any OpenAI-compatible chat endpoint (OpenAI, Azure, vLLM, Ollama, …),
 * decision 0116. The model answers through structured output (a strict JSON Schema of the same
 * findings the local engine gives: summary and deal sheet, CUAD clauses and key terms, risks with
 * the parties they bind), quoting the document instead of giving offsets, because models count
 * characters badly; every quote is then located verbatim in the text, and a finding whose quote is
 * not there is dropped and counted in `droppedUnverified`. A document longer than the configured
 * context is read in consecutive parts (context-windows.ts), one request each, with progress.
 */
import OpenAI from 'openai'
import { emptyKeyTerms, emptySummary } from './empty-result'
import { analysisPrompt, analysisSchema, partsOf } from './openai/analysis-schema'
import { contextWindows } from './openai/context-windows'
import { StructuredCompletion } from './openai/structured-completion'
import { TERM_NAMES, verifyFindings, type VerifiedPart } from './openai/verify-findings'
import { DEAL_SHEET_LABELS } from './shared/deal-sheet-labels'
import {
  DEAL_SHEET_KEYS,
  type AnalysisKind,
  type AnalysisResult,
  type Analyzer,
  type AnalyzeOptions,
  type AttentionPoint,
  type DealSheet,
  type KeyTerms,
  type QuotedSpan,
  type Risk,
  type Summary,
} from './types'

/**
 * Characters of the document sent in one request (AI_ANALYSIS_CONTEXT_CHARS): 100,000 characters
 * are about 25,000 tokens of English, well inside the 128k-token context of current hosted models
 * with room for the instructions and the answer.
 */
export const DEFAULT_CONTEXT_CHARS = 100_000

/** Per-request timeout in milliseconds: a full analysis of a long contract can take a minute. */
const DEFAULT_TIMEOUT_MS = 120_000

/** Summary sentences kept of a document read in several parts (a one-part answer asks 3–7). */
const MAX_SUMMARY_SENTENCES = 7

/** Attention points kept, as the local deal sheet's 3–5. */
const MAX_ATTENTION_POINTS = 5

/** Constructor options; `apiKey` may be omitted for local servers that do not check it. */
export interface OpenAIAnalyzerOptions {
  baseURL: string
  apiKey?: string
  model: string
  /** Characters of the document per request (default DEFAULT_CONTEXT_CHARS). */
  contextChars?: number
  timeoutMs?: number
}

/**
 * Analyses documents with a chat model through the official `openai` SDK.
 *
 * One structured request per part of the document, each retried once when the provider fails or
 * the answer is not JSON of the expected shape; after that `analyze` rejects with
 * Error("The AI provider failed: …") and returns nothing of the parts already read (no half
 * result is stored). An aborted `signal` rejects at once, without retry. A risk without a quote
 * (an absent clause) is marked absent, without a citation, and kept only when every part reports
 * it. `onProgress` hears each part begin and, at the end, how many findings were dropped.
 */
export class OpenAIAnalyzer implements Analyzer {
  readonly engine = 'openai'
  private readonly client: OpenAI
  private readonly structured: StructuredCompletion
  private readonly model: string
  private readonly contextChars: number

  constructor(options: OpenAIAnalyzerOptions) {
    this.model = options.model
    this.contextChars = options.contextChars ?? DEFAULT_CONTEXT_CHARS
    this.client = new OpenAI({
      baseURL: options.baseURL,
      // The SDK insists on a key; self-hosted endpoints usually ignore it.
      apiKey: options.apiKey || 'not-needed',
      // Retries are ours (one, covering invalid output too), so the SDK's are off.
      maxRetries: 0,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    })
    this.structured = new StructuredCompletion(this.client)
  }

  async analyze(
    content: string,
    kind: AnalysisKind,
    options: AnalyzeOptions = {},
  ): Promise<AnalysisResult> {
    const { signal, onProgress } = options
    const started = performance.now()
    const windows = contextWindows(content, this.contextChars)
    const verified: VerifiedPart[] = []
    for (const [index, window] of windows.entries()) {
      onProgress?.(
        index / windows.length,
        windows.length > 1
          ? `Reading part ${index + 1} of ${windows.length}`
          : 'Reading the document',
      )
      const part = windows.length > 1 ? { index, count: windows.length } : undefined
      const output = await this.requestWithRetry(
        kind,
        analysisPrompt(kind, { part, ourParty: options.ourParty }),
        window.text,
        signal,
      )
      verified.push(verifyFindings(content, window, output))
    }
    const result = mergeParts(kind, verified)
    onProgress?.(
      1,
      result.droppedUnverified > 0
        ? `Analysed; ${result.droppedUnverified} finding(s) dropped because their quotes are not in the text`
        : 'Analysed',
    )
    return {
      ...result,
      engine: this.engine,
      model: this.model,
      durationMs: performance.now() - started,
    }
  }

  private async requestWithRetry(
    kind: AnalysisKind,
    system: string,
    user: string,
    signal: AbortSignal | undefined,
  ) {
    let lastError: unknown
    for (let attempt = 0; attempt < 2; attempt += 1) {
      signal?.throwIfAborted()
      try {
        return await this.structured.request({
          model: this.model,
          name: 'contract_analysis',
          schema: analysisSchema(kind),
          system,
          user,
          signal,
        })
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        lastError = error
      }
    }
    const detail = lastError instanceof Error ? lastError.message : String(lastError)
    throw new Error(`The AI provider failed: ${detail}`)
  }
}

/** The parts' findings as one result, in document order (see OpenAIAnalyzer on absent risks). */
function mergeParts(
  kind: AnalysisKind,
  parts: readonly VerifiedPart[],
): Omit<AnalysisResult, 'engine' | 'model' | 'durationMs'> & { droppedUnverified: number } {
  const wants = partsOf(kind)
  const droppedUnverified = parts.reduce((sum, part) => sum + part.dropped, 0)
  return {
    summary: wants.summary ? summaryOf(parts) : emptySummary(),
    clauses: wants.clauses
      ? parts.flatMap((part) => part.clauses).sort((a, b) => a.start - b.start)
      : [],
    risks: wants.risks ? risksOf(parts) : [],
    keyTerms: wants.clauses ? keyTermsOf(parts) : emptyKeyTerms(),
    droppedUnverified,
  }
}

function summaryOf(parts: readonly VerifiedPart[]): Summary {
  const sentences = parts.length === 1 ? [...(parts[0]?.summary ?? [])] : roundRobin(parts)
  sentences.sort((a, b) => a.start - b.start)
  const dealSheet: DealSheet = {
    lines: DEAL_SHEET_KEYS.map(
      (key) =>
        parts.map((part) => part.lines.get(key)).find((line) => line !== undefined) ?? {
          key,
          label: DEAL_SHEET_LABELS[key],
          value: null,
          citations: [],
        },
    ),
    attention: parts
      .flatMap((part): AttentionPoint[] => part.attention)
      .slice(0, MAX_ATTENTION_POINTS),
  }
  return { text: sentences.map((s) => s.text).join(' '), sentences, dealSheet }
}

/** The parts' summary sentences taken in turns, so a long document's is not all its opening. */
function roundRobin(parts: readonly VerifiedPart[]): QuotedSpan[] {
  const chosen: QuotedSpan[] = []
  for (let round = 0; chosen.length < MAX_SUMMARY_SENTENCES; round += 1) {
    const taken = parts.flatMap((part) => part.summary[round] ?? [])
    if (taken.length === 0) break
    chosen.push(...taken.slice(0, MAX_SUMMARY_SENTENCES - chosen.length))
  }
  return chosen
}

function risksOf(parts: readonly VerifiedPart[]): Risk[] {
  const cited = parts.flatMap((part) => part.risks)
  const [first, ...rest] = parts
  // A missing clause is only missing when no part has it: every part must report it absent.
  const absent = (first?.absentRisks ?? []).filter((risk) =>
    rest.every((part) => part.absentRisks.some((other) => other.code === risk.code)),
  )
  return [...cited, ...absent]
}

function keyTermsOf(parts: readonly VerifiedPart[]): KeyTerms {
  const result = emptyKeyTerms()
  const names = new Set<string>()
  for (const party of parts.flatMap((part) => part.parties)) {
    const name = party.name.trim().toLowerCase()
    if (names.has(name)) continue
    names.add(name)
    result.parties.push(party)
  }
  for (const name of TERM_NAMES)
    result[name] = parts.map((part) => part.terms[name]).find((term) => term !== undefined) ?? null
  return result
}

/**
 * The local analysis engine: composes sentence segmentation, the CUAD clause detector, key-term
 * rules, LexRank summary and risk rules into one AnalysisResult, with no network access.
 */
import { emptyKeyTerms, emptySummary } from '../empty-result'
import type { AnalysisKind, AnalysisResult } from '../types'
import { detectClauses } from './clauses/detect-clauses'
import { extractKeyTerms } from './key-terms'
import { assessRisks } from './risks'
import { segmentSentences } from './sentences'
import { summarizeContract } from './contract-summary'

/** Engine and model names stored with every local result; bump the model when rules change. */
const LOCAL_ENGINE = 'local'
const LOCAL_MODEL = 'lexdesk-local-2'

/** Options of a local analysis. */
export interface LocalAnalysisOptions {
  /**
   * The name of the party the firm acts for, as the user chose it among the extracted parties (or
   * any spelling of it); risks are then oriented to that side (see assessRisks).
   */
  ourParty?: string
}

/**
 * Analyses `content` locally. `kind` selects the parts: 'summarize' → summary; 'clauses' →
 * clauses and key terms; 'risks' → risks (computed from clauses and key terms, which are not
 * returned); 'full' → everything. Parts not asked for are empty. Every span indexes `content`
 * (UTF-16 offsets, `text === content.slice(start, end)`); `durationMs` is wall time in
 * milliseconds. Synchronous and CPU-bound (median well under 200 ms per CUAD contract): call it
 * from a worker thread (LocalAnalyzer) on a server. Never throws for any string input.
 */
export function analyzeLocal(
  content: string,
  kind: AnalysisKind,
  options: LocalAnalysisOptions = {},
): AnalysisResult {
  const started = performance.now()
  const sentences = segmentSentences(content)
  const wantsSummary = kind === 'summarize' || kind === 'full'
  const wantsClauses = kind === 'clauses' || kind === 'full'
  const wantsRisks = kind === 'risks' || kind === 'full'
  // The summary's header and substance sentences are built from the clauses and key terms too.
  const clauses = detectClauses(content, sentences)
  const keyTerms = extractKeyTerms(content, sentences)
  return {
    summary: wantsSummary
      ? summarizeContract(content, sentences, clauses, keyTerms)
      : emptySummary(),
    clauses: wantsClauses ? clauses : [],
    risks: wantsRisks
      ? assessRisks(content, sentences, clauses, keyTerms, { ourParty: options.ourParty })
      : [],
    keyTerms: wantsClauses ? keyTerms : emptyKeyTerms(),
    engine: LOCAL_ENGINE,
    model: LOCAL_MODEL,
    durationMs: performance.now() - started,
  }
}

/**
 * Web-side shapes of an analysis, derived from the generated API schema (server source of truth:
 * server/ai/analyzer/types.ts). Every `start`/`end` is a half-open UTF-16 offset into the analysed
 * document's `content`, and every quoted `text` equals `content.slice(start, end)`.
 */
import type { components } from '../../../lib/api-schema'

/** A stored analysis of one document. `createdAt` is an ISO 8601 timestamp. */
export type Analysis = components['schemas']['Analysis']
/** The analysis output; parts not asked for by `kind` are empty (not omitted). */
export type AnalysisResult = Analysis['result']
/** What to analyse: 'summarize' | 'clauses' | 'risks' | 'full'. */
export type AnalysisKind = Analysis['kind']
/** A clause; `category` is a CUAD v1 category name, `confidence` 0–1. */
export type Clause = AnalysisResult['clauses'][number]
/** A risk anchored to the passage that raised it. */
export type Risk = AnalysisResult['risks'][number]
/** 'low' | 'medium' | 'high'. */
export type Severity = Risk['severity']
/** Parties and single-valued key terms (null when not found). */
export type KeyTerms = AnalysisResult['keyTerms']
/** A key term's normalised value and where it was read. */
export type KeyTerm = NonNullable<KeyTerms['governingLaw']>

/** A half-open character range `[start, end)` of a document's content. */
export interface Span {
  start: number
  end: number
}

/**
 * What the analysis panel shows: nothing (idle), Working (loading; `jobId` when it runs as a
 * background job), Error, or Ready (ok).
 */
export type AnalysisPanelState =
  | { status: 'idle' }
  | { status: 'loading'; jobId?: string }
  | { status: 'error'; message: string }
  | { status: 'ok'; analysis: Analysis }

/** A contract's deal sheet (absent from analyses stored before it existed). */
export type DealSheet = NonNullable<AnalysisResult['summary']['dealSheet']>

/** Whom the firm acts for in a document: a party by name, or a role. */
export type WeActFor = NonNullable<Analysis['weActFor']>
/** A role the firm's client may hold ('licensee', 'customer', 'employee'…). */
export type PartyRole = Extract<WeActFor, { kind: 'role' }>['role']

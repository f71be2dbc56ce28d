/**
 * The analysis contract shared by every analyzer engine, the documents API and the web client.
 *
 * Every `start`/`end` is a character offset (UTF-16 code units, as JavaScript strings count them)
 * into the analysed document's `content`, half-open: the quoted `text` always equals
 * `content.slice(start, end)`. Clause `category` is a CUAD v1 category name (The Atticus Project,
 * Hendrycks et al. 2021, CC BY 4.0).
 */
import { z } from 'zod'

export const AnalysisKind = z.enum(['summarize', 'clauses', 'risks', 'full'])
export type AnalysisKind = z.infer<typeof AnalysisKind>

export const Span = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) })
export type Span = z.infer<typeof Span>

export const QuotedSpan = Span.extend({ text: z.string() })
export type QuotedSpan = z.infer<typeof QuotedSpan>

export const Severity = z.enum(['low', 'medium', 'high'])
export type Severity = z.infer<typeof Severity>

export const Clause = QuotedSpan.extend({
  category: z.string(),
  confidence: z.number().min(0).max(1),
})
export type Clause = z.infer<typeof Clause>

/** Whom a risk binds, from the side of "our party": only us, only them, or both sides. */
export const RiskOrientation = z.enum(['binds-us', 'binds-them', 'mutual'])
export type RiskOrientation = z.infer<typeof RiskOrientation>

/**
 * A flagged passage. `explanation` says in one plain sentence why it matters. `binds` names the
 * parties the passage burdens (absent when no party can be told); `severityIfBindsUs` and
 * `severityIfBindsThem` are the severities when the firm's client is, or is not, among them, so a
 * client can re-orient without a new analysis; `orientation` is set when the request named our
 * party, and `severity` is then already oriented. All four are optional: older analyses lack them.
 * `absent` marks a risk about a clause the contract lacks: it has no citation, and its span is the
 * empty span at 0. `whose` says whose risk it is and why ("Our risk", "Their risk", "Mutual",
 * "Risk for Acme Corp"); the server sets it, with `orientation` and the oriented `severity`, from
 * the document's stored "we act for" choice when it returns an analysis (orient-risks.ts).
 */
export const Risk = Span.extend({
  code: z.string(),
  severity: Severity,
  title: z.string(),
  explanation: z.string(),
  binds: z.array(z.string()).optional(),
  severityIfBindsUs: Severity.optional(),
  severityIfBindsThem: Severity.optional(),
  orientation: RiskOrientation.optional(),
  absent: z.boolean().optional(),
  whose: z.object({ label: z.string(), reason: z.string() }).optional(),
})
export type Risk = z.infer<typeof Risk>

/** A key term's normalised value and the passage it was read from. */
export const KeyTerm = Span.extend({ value: z.string() })
export type KeyTerm = z.infer<typeof KeyTerm>

/**
 * A contracting party: `start`/`end` span its name. `definedTerm` is the label the contract gives
 * it ("Licensor", "Acme") with the label's own span; `role` is the generic role it plays when the
 * contract names one (Licensor, Distributor, Company, Party A), else absent. Both optional so
 * analyses stored before they existed still parse.
 */
export const Party = Span.extend({
  name: z.string(),
  definedTerm: QuotedSpan.optional(),
  role: z.string().optional(),
})
export type Party = z.infer<typeof Party>

export const KeyTerms = z.object({
  parties: z.array(Party),
  agreementDate: KeyTerm.nullable(),
  effectiveDate: KeyTerm.nullable(),
  expirationDate: KeyTerm.nullable(),
  governingLaw: KeyTerm.nullable(),
  renewalTerm: KeyTerm.nullable(),
  noticePeriod: KeyTerm.nullable(),
})
export type KeyTerms = z.infer<typeof KeyTerms>

/** One line of a summary's header ("Parties", "Term"), read from the passage it spans. */
export const SummaryFact = Span.extend({ label: z.string(), value: z.string() })
export type SummaryFact = z.infer<typeof SummaryFact>

/** A summary sentence quoted from the document; `category` is the clause it was chosen for. */
export const SummarySentence = QuotedSpan.extend({ category: z.string().optional() })
export type SummarySentence = z.infer<typeof SummarySentence>

/** The fixed lines of a deal sheet, in the order a first-pass review memo reads them. */
export const DEAL_SHEET_KEYS = [
  'deal',
  'parties',
  'agreementDate',
  'effectiveDate',
  'term',
  'money',
  'termination',
  'liability',
  'restrictions',
  'assignment',
  'ip',
  'confidentiality',
  'law',
] as const
export const DealSheetKey = z.enum(DEAL_SHEET_KEYS)
export type DealSheetKey = z.infer<typeof DealSheetKey>

/**
 * One deal-sheet line: `value` is null when the contract was read and the point was not found
 * ('Not found'); otherwise `citations` holds one or more exact quotes it was read from.
 */
export const DealSheetLine = z.object({
  key: DealSheetKey,
  label: z.string(),
  value: z.string().nullable(),
  citations: z.array(QuotedSpan),
})
export type DealSheetLine = z.infer<typeof DealSheetLine>

/** A point that most needs a lawyer's attention, with the passages behind it (none when absent). */
export const AttentionPoint = z.object({ text: z.string(), citations: z.array(QuotedSpan) })
export type AttentionPoint = z.infer<typeof AttentionPoint>

/** The deal sheet: every line of DEAL_SHEET_KEYS in order, then 3–5 attention points. */
export const DealSheet = z.object({
  lines: z.array(DealSheetLine),
  attention: z.array(AttentionPoint),
})
export type DealSheet = z.infer<typeof DealSheet>

/**
 * `text` is what a reader sees and pastes (the deal sheet as plain text when there is one, else
 * header lines and sentences); `sentences` are the quoted substance sentences; `header` and
 * `dealSheet` are optional because analyses stored before them lack them.
 */
export const Summary = z.object({
  text: z.string(),
  sentences: z.array(SummarySentence),
  header: z.array(SummaryFact).optional(),
  dealSheet: DealSheet.optional(),
})
export type Summary = z.infer<typeof Summary>

/**
 * The stored and returned analysis. Parts not asked for by `kind` are empty (not omitted).
 * `droppedUnverified` counts the findings an engine dropped because the passage it quoted is not
 * in the document (the OpenAI-compatible engine, decision 0116); absent for engines that only
 * cite by offsets, and in analyses stored before it.
 */
export const AnalysisResult = z.object({
  summary: Summary,
  clauses: z.array(Clause),
  risks: z.array(Risk),
  keyTerms: KeyTerms,
  engine: z.string(),
  model: z.string(),
  durationMs: z.number().min(0),
  droppedUnverified: z.number().int().min(0).optional(),
})
export type AnalysisResult = z.infer<typeof AnalysisResult>

/** Per-call options of Analyzer.analyze; all optional. */
export interface AnalyzeOptions {
  /** Stops the analysis; the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Progress reports: `fraction` in 0..1 and a short user-facing message. */
  onProgress?: (fraction: number, message: string) => void
  /** The party the firm acts for (a name, defined term or role); risks are oriented to it. */
  ourParty?: string
}

/**
 * An analysis engine. `analyze` resolves to a result whose spans all index into `content`;
 * it rejects with an `Error` when the engine fails, whose message may name internal hosts: callers
 * log it and show users a fixed message (features/analysis answers a 502 problem).
 */
export interface Analyzer {
  readonly engine: string
  analyze(content: string, kind: AnalysisKind, options?: AnalyzeOptions): Promise<AnalysisResult>
  /** Releases engine resources (worker threads, sockets); optional. */
  close?(): Promise<void>
}

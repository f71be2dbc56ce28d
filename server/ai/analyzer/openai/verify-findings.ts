/**
 * Turns a model's answer about one part of a document into findings cited by offsets: every quote
 * is located verbatim (exactly, then with whitespace runs treated as equal) in that part, and a
 * finding whose quote is not there is dropped and counted, so a provider can neither invent a
 * citation nor move one (decision 0116).
 */
import { ABSENT_CLAUSE, locateQuote } from '../shared/citations'
import { DEAL_SHEET_LABELS } from '../shared/deal-sheet-labels'
import {
  DEAL_SHEET_KEYS,
  type AttentionPoint,
  type Clause,
  type DealSheetKey,
  type DealSheetLine,
  type KeyTerm,
  type KeyTerms,
  type Party,
  type QuotedSpan,
  type Risk,
} from '../types'
import type { ModelOutput } from './analysis-schema'
import type { ContextWindow } from './context-windows'

/** The key terms read as a single value (every KeyTerms field but the parties). */
export const TERM_NAMES = [
  'agreementDate',
  'effectiveDate',
  'expirationDate',
  'governingLaw',
  'renewalTerm',
  'noticePeriod',
] as const satisfies readonly (keyof KeyTerms)[]

/**
 * The verified findings of one part, offsets into the whole document. A deal-sheet line is
 * absent from `lines` when the part says nothing on it; `absentRiskCodes` are the missing-clause
 * risks the part reported (kept by the caller only when every part reports them).
 */
export interface VerifiedPart {
  summary: QuotedSpan[]
  lines: Map<DealSheetKey, DealSheetLine>
  attention: AttentionPoint[]
  clauses: Clause[]
  parties: Party[]
  terms: Partial<Record<(typeof TERM_NAMES)[number], KeyTerm>>
  risks: Risk[]
  absentRisks: Risk[]
  /** Findings dropped because a quote they rest on is not in the part. */
  dropped: number
}

/** Verifies `output`, the model's answer about `window` of `content` (see VerifiedPart). */
export function verifyFindings(
  content: string,
  window: ContextWindow,
  output: ModelOutput,
): VerifiedPart {
  let dropped = 0
  /** The quote's span in the document, or null (counted) when it is not in the part. */
  const cite = (quote: string): QuotedSpan | null => {
    const span = locateQuote(window.text, quote)
    if (!span) {
      dropped += 1
      return null
    }
    const start = window.start + span.start
    const end = window.start + span.end
    return { start, end, text: content.slice(start, end) }
  }

  const summary = (output.summary ?? []).flatMap((quote) => cite(quote) ?? [])

  const lines = new Map<DealSheetKey, DealSheetLine>()
  for (const line of output.dealSheet?.lines ?? []) {
    if (line.value === null || lines.has(line.key) || !DEAL_SHEET_KEYS.includes(line.key)) continue
    // A line stands on its verified quotes; one with none left (or never any) is dropped.
    const citations = line.quotes.flatMap((quote) => cite(quote) ?? [])
    if (citations.length === 0) {
      if (line.quotes.length === 0) dropped += 1
      continue
    }
    lines.set(line.key, {
      key: line.key,
      label: DEAL_SHEET_LABELS[line.key],
      value: line.value,
      citations,
    })
  }
  const attention = (output.dealSheet?.attention ?? []).flatMap((point) => {
    const citations = point.quotes.flatMap((quote) => cite(quote) ?? [])
    // A point about something missing cites nothing; one whose every quote failed is dropped.
    return point.quotes.length > 0 && citations.length === 0
      ? []
      : [{ text: point.text, citations }]
  })

  const clauses = (output.clauses ?? []).flatMap((clause) => {
    const span = cite(clause.quote)
    return span
      ? [
          {
            ...span,
            category: clause.category,
            confidence: Math.min(1, Math.max(0, clause.confidence)),
          },
        ]
      : []
  })

  const parties = (output.keyTerms?.parties ?? []).flatMap((party): Party[] => {
    const span = cite(party.quote)
    if (!span) return []
    const label = party.definedTerm
      ? definedTermAfter(content, window, span.end, party.definedTerm)
      : null
    return [
      {
        name: party.name,
        start: span.start,
        end: span.end,
        ...(label ? { definedTerm: label } : {}),
        ...(party.role ? { role: party.role } : {}),
      },
    ]
  })

  const terms: VerifiedPart['terms'] = {}
  for (const name of TERM_NAMES) {
    const term = output.keyTerms?.[name]
    const span = term ? cite(term.quote) : null
    if (term && span) terms[name] = { value: term.value, start: span.start, end: span.end }
  }

  const risks: Risk[] = []
  const absentRisks: Risk[] = []
  for (const { quote, binds, ...risk } of output.risks ?? []) {
    const finding = { ...risk, ...(binds.length > 0 ? { binds } : {}) }
    if (quote === null) {
      absentRisks.push({ ...finding, ...ABSENT_CLAUSE })
      continue
    }
    const span = cite(quote)
    if (span) risks.push({ ...finding, start: span.start, end: span.end })
  }

  return { summary, lines, attention, clauses, parties, terms, risks, absentRisks, dropped }
}

/**
 * The defined label of a party as written in the part: its first occurrence after the party's name
 * (where "("Licensor")" follows it), else its first anywhere in the part; null when absent (the
 * label is then left out, not counted: the party itself is verified).
 */
function definedTermAfter(
  content: string,
  window: ContextWindow,
  after: number,
  label: string,
): QuotedSpan | null {
  const end = window.start + window.text.length
  const near = content.slice(after, end).indexOf(label)
  const at = near >= 0 ? after + near : window.text.indexOf(label)
  if (at < 0 || label.trim() === '') return null
  const start = near >= 0 ? at : window.start + at
  return { start, end: start + label.length, text: content.slice(start, start + label.length) }
}

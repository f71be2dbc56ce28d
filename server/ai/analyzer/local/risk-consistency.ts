/**
 * Keeps the risks from contradicting the rest of the analysis of the same document: a risk about
 * the governing law, the cap on liability or the notice period is checked against the key terms
 * and the deal sheet's cap (the same wording liability-line.ts reads), and dropped when they show
 * it wrong.
 */
import type { KeyTerms, QuotedSpan, Risk } from '../types'
import { CAP, CAP_LIMIT } from './deal-sheet/liability-line'
import { statedPeriodDays } from './stated-period'

/** An auto-renewal whose opt-out notice is this many days or fewer counts as short notice. */
export const SHORT_NOTICE_DAYS = 30

/** Risks that say no governing law is fixed. */
const LAW_RISKS = new Set(['governing-law-missing', 'governing-law-unclear'])

/** A passage about the notice that stops a renewal (the key term's own sentence). */
const RENEWAL_NOTICE = /\b(?:renew\w*|non-?renewal|expir\w*|extend\w*|extension)\b/i

/**
 * `risks` without those the key terms or a stated cap contradict. `sentences` are the operative
 * sentences of `content`, `keyTerms` its key terms. Drops: a governing-law-missing or -unclear
 * risk when the key terms name the law; a liability-missing risk, or a "limited but not capped"
 * one, when a sentence states a cap; an auto-renewal-short-notice risk when the key terms read,
 * from another passage about renewal, a notice period longer than SHORT_NOTICE_DAYS (the key term
 * counts only when the passage it spans states that period itself). Pure; never throws.
 */
export function reconcileRisks(
  content: string,
  sentences: readonly QuotedSpan[],
  risks: readonly Risk[],
  keyTerms: KeyTerms,
): Risk[] {
  const capStated = sentences.some((s) => CAP.test(s.text) && CAP_LIMIT.test(s.text))
  return risks.filter((risk) => {
    if (LAW_RISKS.has(risk.code)) return !keyTerms.governingLaw
    if (risk.code === 'liability-missing') return !capStated
    if (risk.code === 'liability-uncapped' && risk.severity !== 'high') return !capStated
    if (risk.code === 'auto-renewal-short-notice')
      return !longNoticeElsewhere(content, risk, keyTerms)
    return true
  })
}

/** Whether the key terms' notice period comes from another renewal passage and is not short. */
function longNoticeElsewhere(content: string, risk: Risk, keyTerms: KeyTerms): boolean {
  const term = keyTerms.noticePeriod
  if (!term || (term.start >= risk.start && term.end <= risk.end)) return false
  const passage = content.slice(term.start, term.end)
  const days = statedPeriodDays(passage)
  return RENEWAL_NOTICE.test(passage) && days !== null && days > SHORT_NOTICE_DAYS
}

/** The 3–5 points of a deal sheet that most need a lawyer's attention. */
import type { AttentionPoint, DealSheetKey, DealSheetLine } from '../../types'
import { clausesOf, distinctQuotes, isOperative, type SheetInput } from './sheet-input'

/** At most this many points; fewer than MIN_POINTS only when the contract gives no more. */
const MAX_POINTS = 5
const MIN_POINTS = 3

/** Clause categories that call for a lawyer's reading, most pressing first, with why. */
const FLAGGED: readonly [category: string, why: string][] = [
  ['Uncapped Liability', 'Some liability is expressly uncapped'],
  ['Liquidated Damages', 'Liquidated damages are fixed in advance'],
  ['Non-Compete', 'A non-compete restricts where a party may do business'],
  ['Exclusivity', 'Exclusivity ties a party to this deal'],
  ['Minimum Commitment', 'A minimum commitment must be met whatever the demand'],
  ['Ip Ownership Assignment', 'IP is assigned: check that it is the right way round'],
  ['Termination For Convenience', 'A party may walk away without cause'],
  ['Change Of Control', 'A change of control triggers rights under the contract'],
  ['Most Favored Nation', 'A most-favoured-nation promise constrains future pricing'],
  ['Rofr/Rofo/Rofn', 'A right of first refusal or offer binds future deals'],
]

/** Lines whose absence itself needs attention, with what their absence means. */
const MISSING: readonly [key: DealSheetKey, why: string][] = [
  ['liability', 'No cap on liability or exclusion of damages was found: exposure may be unlimited'],
  ['law', 'No governing law or venue was found'],
  ['term', 'No term or end date was found: check how the contract ends'],
  ['termination', 'No right to terminate was found'],
  ['money', 'No price, fee or payment terms were found'],
]

/**
 * Up to five points, most pressing first: automatic renewal, flagged clauses (see FLAGGED), then
 * key lines the contract lacks (see MISSING). Each point cites its passage; a missing line cites
 * nothing, because there is nothing to cite.
 */
export function attentionPoints(
  input: SheetInput,
  lines: readonly DealSheetLine[],
): AttentionPoint[] {
  const points: AttentionPoint[] = []
  const renewal = input.keyTerms.renewalTerm
  if (renewal) {
    const notice = input.keyTerms.noticePeriod
    points.push({
      text: `The contract renews for ${renewal.value}${notice ? ` unless notice is given ${notice.value} ahead` : ''}: diarise the notice date`,
      citations: distinctQuotes(
        [renewal, notice].map((t) =>
          t ? { start: t.start, end: t.end, text: input.content.slice(t.start, t.end) } : null,
        ),
      ),
    })
  }
  for (const [category, why] of FLAGGED) {
    if (points.length >= MAX_POINTS) break
    const clause = clausesOf(input, [category]).find((c) => isOperative(c))
    if (clause) points.push({ text: why, citations: distinctQuotes([clause]) })
  }
  for (const [key, why] of MISSING) {
    if (points.length >= MAX_POINTS) break
    const line = lines.find((l) => l.key === key)
    const urgent = key === 'liability' || points.length < MIN_POINTS
    if (line && line.value === null && urgent) points.push({ text: why, citations: [] })
  }
  return points.slice(0, MAX_POINTS)
}

/** The deal sheet's termination-rights line: who may end the contract, on what notice, for what. */
import type { QuotedSpan } from '../../types'
import { DURATION_SOURCE, durationFrom, formatDuration } from '../dates'
import { distinctQuotes, sentencesWith, type LineFinding, type SheetInput } from './sheet-input'

/** A right to end the contract: "may terminate", "shall have the right to terminate". */
const RIGHT =
  /\b(?:may|can|shall\s+(?:have\s+the\s+right|be\s+entitled)\s+to|is\s+entitled\s+to|right\s+to)\s+(?:immediately\s+)?terminat\w*/i

/** Who holds the right: the noun phrase that ends just before it ("Either party", "the Licensor"). */
const HOLDER =
  /((?:[Ee]ither|[Ee]ach|[Aa]ny|[Tt]he\s+non-?breaching|[Tt]he\s+other|[Tt]he\s+terminating)\s+[Pp]arty|[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})\s*$/

/** Words between a holder and its right: "shall have", "at its option", "also". */
const BETWEEN_HOLDER_AND_RIGHT =
  /(?:,?\s*(?:at\s+(?:its|any)\s+(?:sole\s+)?(?:option|discretion|time)|in\s+its\s+(?:sole\s+)?discretion|then|also|thereupon|hereby|immediately|additionally|(?:shall|will)\s+have|(?:shall|will)\s+be|is))*,?\s*$/i

/** Capitalised words that are not a party ("Agreement may terminate", "Section 5 …"). */
const NOT_A_HOLDER =
  /^(?:This|Agreement|Section|Article|Clause|Termination|Term|Notice|In|If|Upon|Either|Each)$/

/** Grounds, most specific first, with the words that show them. */
const GROUNDS: readonly [string, RegExp][] = [
  [
    'material breach',
    /\b(?:material(?:ly)?\s+)?breach\w*|\bdefault\b|\bfails?\s+to\s+(?:perform|pay|cure)/i,
  ],
  [
    'insolvency',
    /\b(?:insolven\w*|bankrupt\w*|receiver|liquidat\w*|winding[\s-]up|assignment\s+for\s+the\s+benefit\s+of\s+creditors)/i,
  ],
  [
    'convenience',
    /\bfor\s+(?:its\s+)?convenience|\bwithout\s+cause\b|\bfor\s+any\s+(?:or\s+no\s+)?reason\b|\bat\s+any\s+time\b[^.]{0,40}\bnotice\b/i,
  ],
  [
    'change of control',
    /\bchange\s+(?:of|in)\s+control\b|\bacquir\w+\b[^.]{0,40}\b(?:voting|shares|assets)/i,
  ],
  ['non-payment', /\b(?:non-?payment|fail\w*\s+to\s+pay)\b/i],
  ['force majeure', /\bforce\s+majeure\b/i],
]

/** A notice period: "upon thirty (30) days' prior written notice", "on 90 days notice". */
const NOTICE = new RegExp(
  `${DURATION_SOURCE}['’]?s?['’]?\\s+(?:prior\\s+|advance\\s+)?(?:written\\s+)?notice`,
  'i',
)

/** Sentences about what follows termination, not the right to terminate. */
const CONSEQUENCE =
  /\b(?:upon|after|following|on)\s+(?:any\s+)?(?:the\s+)?(?:termination|expiration|expiry)\b|\bsurviv/i

/**
 * Termination rights: up to three, each "holder: grounds (notice)", from the sentences that grant
 * a right to terminate; null when none does.
 */
export function terminationLine(input: SheetInput): LineFinding {
  const rights: string[] = []
  const cites: QuotedSpan[] = []
  for (const sentence of sentencesWith(input, RIGHT)) {
    if (CONSEQUENCE.test(sentence.text.slice(0, sentence.text.search(RIGHT)))) continue
    const right = describeRight(sentence.text)
    if (rights.includes(right)) continue
    rights.push(right)
    cites.push(sentence)
    if (rights.length === 3) break
  }
  if (rights.length === 0) return null
  return { value: rights.join('; '), citations: distinctQuotes(cites) }
}

/** "Either party: material breach (30 days' notice)" for one sentence granting a right. */
export function describeRight(text: string): string {
  const flatText = text.replace(/\s+/g, ' ')
  const at = flatText.search(RIGHT)
  const before = flatText.slice(Math.max(0, at - 160), at).replace(BETWEEN_HOLDER_AND_RIGHT, '')
  const found = HOLDER.exec(before)?.[1]?.replace(/^the\s+/i, '')
  const holder = found && !NOT_A_HOLDER.test(found) ? found : 'A party'
  const grounds = GROUNDS.filter(([, re]) => re.test(flatText)).map(([name]) => name)
  const m = NOTICE.exec(flatText)
  const notice = m ? durationFrom(m, 1) : null
  const capitalised = holder.charAt(0).toUpperCase() + holder.slice(1)
  return `${capitalised}: ${grounds.length > 0 ? grounds.join(', ') : 'as stated'}${
    notice ? ` (${formatDuration(notice)}' notice)` : ''
  }`
}

/**
 * What a sentence or block of a contract is, read from its own wording: a heading, a numbered
 * section's caption, a definition, a recital, the preamble, a signature block, the title of an
 * exhibit or schedule, page furniture (page numbers, filing footers), a table of contents, or
 * operative text that binds or entitles someone. Only operative text can be a finding's evidence
 * (decision 0110). The patterns follow common US/UK drafting conventions (Adams, "A Manual of
 * Style for Contract Drafting", 4th ed., ch. 2 "The Front of the Contract" and ch. 6 "Definitions")
 * and the EDGAR filing footer CUAD's texts carry ("Source: COMPANY, 10-K, 3/1/2019").
 */
import { definedTerm } from './defined-term'

/** The kinds of block a contract is made of; see blockKind. */
export type BlockKind =
  | 'heading'
  | 'section-heading'
  | 'definition'
  | 'recital'
  | 'preamble'
  | 'signature'
  | 'exhibit-title'
  | 'page-furniture'
  | 'contents'
  | 'operative'

/** Letters but no lower-case ones: "ARTICLE 9 - NON-COMPETITION", "EXCLUSIVE AGREEMENT". */
const ALL_CAPS = /^[^a-z]*[A-Z][^a-z]*$/

/** A verb or modal that makes a sentence operative (someone shall, may, agrees, is liable …). */
const OPERATIVE_VERB =
  /\b(?:shall|will|may|must|agrees?|undertakes?|covenants?|hereby|is|are|be|has|have|owes?|pays?|grants?|assigns?|warrants?|represents?|indemnif\w*)\b/i

/**
 * A verb phrase that makes a Title Case line a sentence rather than a caption: a modal or a verb
 * of agreement. A caption's nouns ("Covenant Not to Compete", "Grant of License",
 * "Indemnification") do not count: OPERATIVE_VERB reads them as verbs (decision 0138).
 */
const CAPTION_VERB =
  /\b(?:shall|will|may|must|agrees?|undertakes?|hereby|herein|is|are|was|were|be|been|has|have)\b/i

/** Small words a Title Case caption keeps in lower case ("Covenant Not to Compete", "Limitation of Liability"). */
const CAPTION_SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'by',
  'for',
  'from',
  'in',
  'into',
  'of',
  'on',
  'or',
  'per',
  'the',
  'to',
  'under',
  'upon',
  'with',
])

/** A numbering label inside a caption line: "20.", "15.2.9", "(a)", "IV.", "Section", "ARTICLE". */
const CAPTION_LABEL =
  /^(?:\(?(?:\d+[a-z]?(?:\.\d+)*|[IVXLC]{1,6}|[a-z])\)?[.:)]?|section|article|clause|§|[-–—&])$/i

/** A caption names its section in at most this many words (numbering labels not counted). */
const MAX_CAPTION_WORDS = 16

/**
 * A Title Case caption, numbered or not, that no verb phrase makes a sentence: "20. Covenant Not
 * to Compete.", "Section 9. Indemnification.", "5. Indemnification. 5.1 Indemnification.",
 * "7.2 Mutual Covenants as to Advertisements." Every word but the numbering labels and
 * CAPTION_SMALL_WORDS starts with a capital, the first included; at most MAX_CAPTION_WORDS words;
 * no CAPTION_VERB; not all in capitals (blockKind's ALL_CAPS rule reads those); it ends where a caption ends (a full stop, a colon or its last word), not on a
 * comma or semicolon. Whatever nouns it holds, such a line only names a clause (decision 0138).
 */
function isTitleCaption(text: string): boolean {
  if (ALL_CAPS.test(text) || CAPTION_VERB.test(text) || /[,;]$/.test(text)) return false
  const titleWords = text
    .split(/\s+/)
    .filter((w) => !CAPTION_LABEL.test(w))
    .map((w) => w.replace(/^["“'‘([]+|["”'’)\].,:]+$/g, ''))
    .filter((w) => w.length > 0)
  if (titleWords.length === 0 || titleWords.length > MAX_CAPTION_WORDS) return false
  if (!/^[A-Z]/.test(titleWords[0] ?? '')) return false
  return titleWords.every((w) => /^[A-Z][\w'’/&.-]*$/.test(w) || CAPTION_SMALL_WORDS.has(w))
}

/** A line opening with a numbering label ("20.", "15.2.9", "Section 9.", "ARTICLE IV"). */
const NUMBERED_START = /^\W*(?:(?:article|section|clause)\s+[\dIVXLC]+|\d+(?:\.\d+)*\.?\s)/i

/** A numbered caption: "13.1 Force Majeure", "Section 6.3 Effect of …", "ARTICLE VII …". */
const NUMBERED_CAPTION =
  /^\W*(?:(?:[Aa]rticle|ARTICLE|[Ss]ection|SECTION|[Cc]lause|CLAUSE)\s+[\dIVXLC]+(?:\.\d+)*|\d+(?:\.\d+)+)\.?\s+[A-Z]/

/** A page number run into the next caption's number, as a table of contents runs them together. */
const CONTENTS_ENTRY = /\b\d{1,3}\s+(?:(?:[Ss]ection|[Aa]rticle)\s+)?\d+(?:\.\d+)+\s+[A-Z]/g

/** Page numbers and filing footers: "12", "- 3 -", "Page 4 of 9", "Source: ACME INC, 10-K, 3/1/2019". */
const PAGE_FURNITURE =
  /^\W*(?:page\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,6})\s*[-–—]?\s*(?:of\s+\d{1,4})?\W*$|^\s*source:\s[^\n]{0,200}\b(?:10-K|10-Q|8-K|S-1|S-4|10-12G|F-1|20-F|6-K|DEF\s?14A|SB-2|10-KSB|10-QSB)\b|^\s*\[?\*{3}\]?\s*(?:confidential\s+treatment\s+requested|certain\s+(?:information|portions))\b[^.]{0,200}$/i

/** A recital or the transition after the recitals: "WHEREAS, …", "NOW, THEREFORE, …", "RECITALS". */
const RECITAL =
  /^\W*(?:(?:\(?[A-Z]\)|[A-Z]\.)\s+)?(?:WHEREAS\b|Whereas,|RECITALS?\b|BACKGROUND\b|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H\b|NOW,?\s+THEREFORE\b|Now,?\s+therefore\b)/

/** How far into a sentence the preamble's words are looked for (a preamble states them early). */
const PREAMBLE_REACH = 900

/** The preamble's opening, its instrument, its verb of making and its "between": see isPreamble. */
const PREAMBLE_OPENING = /^\W*(?:this|the)\b/i
const PREAMBLE_INSTRUMENT =
  /\b(?:agreement|amendment|contract|lease|licen[cs]e|memorandum|addendum|deed|note|plan|arrangement)\b/i
const PREAMBLE_MAKING = /\b(?:made|entered\s+into|dated|effective\s+as\s+of)\b/i
const PREAMBLE_BETWEEN = /\b(?:between|among|amongst)\b/i
const BARE_BETWEEN = /^\W*(?:BETWEEN|AMONG)\s*:/

/**
 * The preamble: "This Agreement (the …) is made/entered into/dated … by and between/among …" (the
 * instrument within 200 characters of the start, then the verb, then "between", in that order,
 * all within PREAMBLE_REACH), or the bare "BETWEEN:" of English drafting. Separate linear tests,
 * not one pattern with nested lazy gaps, which backtracks badly on long sentences.
 */
function isPreamble(text: string): boolean {
  if (BARE_BETWEEN.test(text)) return true
  if (!PREAMBLE_OPENING.test(text)) return false
  const head = text.slice(0, PREAMBLE_REACH)
  const instrument = PREAMBLE_INSTRUMENT.exec(head)
  if (!instrument || instrument.index > 200) return false
  const rest = head.slice(instrument.index)
  const making = PREAMBLE_MAKING.exec(rest)
  return making !== null && PREAMBLE_BETWEEN.test(rest.slice(making.index))
}

/** A signature block: "IN WITNESS WHEREOF", "By: ____ Name: … Title: …", "Signature:". */
const SIGNATURE =
  /^\W*IN\s+WITNESS\s+WHEREOF\b|(?:^|\s)(?:By|Name|Title|Its|Signature|Signed|Date)\s*:\s*(?:_{2,}|\/s\/|[^\n]{0,60}\n?\s*(?:Name|Title|Its|Date)\s*:)|_{6,}[^\n]{0,40}\b(?:Name|Title|Authorized\s+Signatory)\b|\/s\/\s/

/** The title of an exhibit, schedule or annex: "EXHIBIT A", "Schedule 2 - Pricing". */
const EXHIBIT_TITLE =
  /^\W*(?:exhibit|schedule|annex|appendix|attachment|addendum)\s+(?:[A-Z]{1,3}|\d{1,3}(?:\.\d+)*|[IVXLC]{1,6})(?:-\d+)?\b/i

/**
 * The kind of one sentence or block (`text`, one segment of segmentSentences). Context-free:
 * documentStructure adds what needs the whole document (repeated headers and footers). A long
 * all-capitals sentence with an operative verb stays operative (many contracts set caps and
 * disclaimers in capitals, decision 0066). Pure; never throws.
 */
export function blockKind(text: string): BlockKind {
  const trimmed = text.trim()
  if (trimmed.length === 0) return 'page-furniture'
  if (PAGE_FURNITURE.test(trimmed)) return 'page-furniture'
  const words = trimmed.split(/\s+/).length
  const operativeVerb = OPERATIVE_VERB.test(trimmed)
  if (SIGNATURE.test(trimmed)) return 'signature'
  if ((trimmed.match(CONTENTS_ENTRY) ?? []).length >= 2) return 'contents'
  if (words <= 15 && EXHIBIT_TITLE.test(trimmed) && !/\b(?:shall|will|must|may)\b/.test(trimmed))
    return 'exhibit-title'
  if (RECITAL.test(trimmed)) return 'recital'
  if (isPreamble(trimmed)) return 'preamble'
  if (ALL_CAPS.test(trimmed) && (words <= 12 || !operativeVerb)) return 'heading'
  if (words <= 20 && NUMBERED_CAPTION.test(trimmed) && !operativeVerb) return 'section-heading'
  if (definedTerm(trimmed) !== null) return 'definition'
  if (words <= 8 && !operativeVerb) return 'heading'
  if (isTitleCaption(trimmed)) return NUMBERED_START.test(trimmed) ? 'section-heading' : 'heading'
  return 'operative'
}

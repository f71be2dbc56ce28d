/**
 * Sparse binary features of contract sentences for the clause classifier: the sentence's words,
 * their Porter2 stems and word pairs, the stems of the heading it sits under, and which phrasing
 * cues it matches (decision 3: stems raised held-out macro-F1 from 0.681 to 0.700).
 * Training (scripts/train-clauses.ts) and detection share this function, so they always agree.
 */
import stem from 'wink-porter2-stemmer'
import type { QuotedSpan } from '../../types'
import { CUE_RULES } from './cue-rules'

/** Longest text treated as a heading; longer lines are provisions. */
const MAX_HEADING_CHARS = 90

/** Small words allowed in lower case inside a Title Case heading ("Limitation of Liability"). */
const HEADING_SMALL_WORDS = new Set([
  'of',
  'and',
  'or',
  'the',
  'to',
  'for',
  'in',
  'on',
  'a',
  'an',
  'by',
  'with',
])

/** Leading numbering of a heading or caption: "1.", "1.1", "(a)", "Section 5", "ARTICLE IV". */
const LEADING_NUMBERING =
  /^(?:(?:section|article|clause|§)\s*)?(?:\(?[\dIVXLCivxlc]+[a-z]?(?:\.\d+)*\)?\.?|\([a-z]{1,3}\)|[a-z]\.)\s+/i

/** An inline caption opening a provision: "12.3 Assignment. Neither party ..." -> "Assignment". */
const CAPTION =
  /^((?:[A-Z][\w'’/&-]*[ ,]+(?:(?:of|and|or|the|to|for|in|on|by|with)\s+)*){0,6}[A-Z][\w'’/&-]*)\s*[.:]\s+\S/

const cueEntries = Object.entries(CUE_RULES)

/**
 * Features for each sentence, in the order given. `sentences` must be in document order (as from
 * segmentSentences); the heading feature of a sentence comes from the nearest heading before it.
 * Feature names: `w:word`, `s:stem` (only when the stem differs from the word), `b:word_word`
 * (lower case, digits folded to `0`), `h:stem` (heading or inline caption), `r:Category` (a cue
 * from CUE_RULES matched). Each list is duplicate-free.
 */
export function sentenceFeatures(sentences: readonly QuotedSpan[]): string[][] {
  let headingWords: string[] = []
  return sentences.map((sentence) => {
    const text = sentence.text
    const features = new Set<string>()
    if (isHeading(text)) {
      headingWords = words(text.replace(LEADING_NUMBERING, '')).slice(0, 8)
    }
    const captionMatch = CAPTION.exec(text.replace(LEADING_NUMBERING, ''))
    const caption = captionMatch?.[1] ? words(captionMatch[1]) : []
    for (const word of [...headingWords, ...caption]) features.add(`h:${stemOf(word)}`)
    const tokens = words(text)
    for (let i = 0; i < tokens.length; i += 1) {
      const token = tokens[i] ?? ''
      features.add(`w:${token}`)
      const root = stemOf(token)
      if (root !== token) features.add(`s:${root}`)
      const next = tokens[i + 1]
      if (next !== undefined) features.add(`b:${token}_${next}`)
    }
    for (const [category, cue] of cueEntries) {
      if (cue.test(text)) features.add(`r:${category}`)
    }
    return [...features]
  })
}

function words(text: string): string[] {
  const found =
    text
      .toLowerCase()
      .replace(/\d+/g, '0')
      .match(/[a-z0]+(?:['’-][a-z0]+)*/g) ?? []
  return found
}

/** Stems already computed: contracts repeat a small vocabulary, and stemming is the costly part. */
const stems = new Map<string, string>()

/** The word's Porter2 stem ("licensing", "licensed" → "licens"), cached. */
function stemOf(word: string): string {
  let found = stems.get(word)
  if (found === undefined) {
    found = stem(word)
    if (stems.size < 200_000) stems.set(word, found)
  }
  return found
}

/** A heading: short, and either in capitals or in Title Case, and not ending like a sentence. */
function isHeading(text: string): boolean {
  if (text.length > MAX_HEADING_CHARS || /[;,]$/.test(text)) return false
  const body = text.replace(LEADING_NUMBERING, '').replace(/[.:]$/, '')
  if (!/[A-Za-z]{3}/.test(body)) return false
  if (!/[a-z]/.test(body)) return true
  const bodyWords = body.split(/\s+/).filter((w) => /[A-Za-z]/.test(w))
  return (
    bodyWords.length <= 8 &&
    bodyWords.every((w) => /^[^a-z]/.test(w) || HEADING_SMALL_WORDS.has(w.toLowerCase()))
  )
}

/**
 * Sparse binary features of contract sentences for the clause classifier: the sentence's words,
 * their Porter2 stems and word pairs, the stems of the heading it sits under, and which phrasing
 * cues it matches (decision 3: stems raised held-out macro-F1 from 0.681 to 0.700); and its
 * context (decision 0113): the cues its neighbours match, its block kind (structure/), its
 * relative position in the document and the defined terms it uses.
 * Training (scripts/train-clauses.ts) and detection share this function, so they always agree.
 */
import stem from 'wink-porter2-stemmer'
import type { QuotedSpan } from '../../types'
import { documentStructure, type TypedSentence } from '../structure/document-structure'
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

/** Relative position buckets: fifths of the document (the front, the body, the boilerplate end). */
const POSITION_BUCKETS = 5

/** A typed heading this long at most names its section (a longer capitalised line is a provision). */
const MAX_TYPED_HEADING_WORDS = 12

/**
 * An inline definition in parentheses: `("Licensed Products")`, `(the "Territory")`,
 * `(hereinafter "Distributor")`; group 1 is the term. Adams, "A Manual of Style for Contract
 * Drafting", 4th ed., ch. 6 (integrated definitions).
 */
const INLINE_DEFINITION =
  /\(\s*(?:(?:the|each|an?|hereinafter(?:\s+referred\s+to\s+as)?|collectively|together|referred\s+to\s+as)[\s,]+)*["“]([A-Z][^"”()]{1,48})["”]/g

/** At most this many defined terms of a document are looked for in its sentences. */
const MAX_DEFINED_TERMS = 200

/**
 * Features for each sentence, in the order given. `sentences` must be in document order (as from
 * segmentSentences); `typed` is documentStructure(sentences) when the caller has it already.
 * The heading feature of a sentence comes from the nearest heading before it.
 * Feature names: `w:word`, `s:stem` (only when the stem differs from the word), `b:word_word`
 * (lower case, digits folded to `0`), `h:stem` (heading or inline caption), `r:Category` (a cue
 * from CUE_RULES matched), `pr:Category` / `nr:Category` (the previous / next sentence matches
 * that cue), `k:kind` (its BlockKind), `p:0`..`p:4` (which fifth of the document it is in),
 * `d:use` and `d:stem_stem` (it uses a term the document defines, and which one). Each list is
 * duplicate-free.
 */
export function sentenceFeatures(
  sentences: readonly QuotedSpan[],
  typed: readonly TypedSentence[] = documentStructure(sentences),
): string[][] {
  let headingWords: string[] = []
  const cues = sentences.map((sentence) =>
    cueEntries.filter(([, cue]) => cue.test(sentence.text)).map(([category]) => category),
  )
  const terms = definedTermsOf(typed)
  return sentences.map((sentence, index) => {
    const text = sentence.text
    const features = new Set<string>()
    const kind = typed[index]?.kind ?? 'operative'
    if (
      isHeading(text) ||
      ((kind === 'heading' || kind === 'section-heading') &&
        text.split(/\s+/).length <= MAX_TYPED_HEADING_WORDS)
    ) {
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
    for (const category of cues[index] ?? []) features.add(`r:${category}`)
    for (const category of cues[index - 1] ?? []) features.add(`pr:${category}`)
    for (const category of cues[index + 1] ?? []) features.add(`nr:${category}`)
    features.add(`k:${kind}`)
    features.add(
      `p:${Math.min(POSITION_BUCKETS - 1, Math.floor((index * POSITION_BUCKETS) / sentences.length))}`,
    )
    if (terms) {
      const own = typed[index]?.defines
      for (const match of text.matchAll(terms.pattern)) {
        const name = match[0].replace(/\s+/g, ' ')
        const key = terms.keys.get(name)
        if (key === undefined || name === own) continue
        features.add('d:use')
        features.add(`d:${key}`)
      }
    }
    return [...features]
  })
}

/**
 * The terms `typed` defines (definitions and inline parenthesised definitions): one whole-word,
 * case-sensitive pattern finding any of them (longest first), and each term's feature key, its
 * words' stems ("Licensed Products" -> "licens_product"), so that the same term defined in another
 * contract gives the same feature. Null when the document defines nothing.
 */
function definedTermsOf(
  typed: readonly TypedSentence[],
): { pattern: RegExp; keys: Map<string, string> } | null {
  const keys = new Map<string, string>()
  for (const sentence of typed) {
    const found = sentence.defines ? [sentence.defines] : []
    for (const match of sentence.text.matchAll(INLINE_DEFINITION)) found.push(match[1] ?? '')
    for (const raw of found) {
      const name = raw.trim().replace(/\s+/g, ' ')
      const key = words(name).map(stemOf).join('_')
      if (key !== '' && /^[A-Z]/.test(name) && !keys.has(name)) keys.set(name, key)
    }
    if (keys.size >= MAX_DEFINED_TERMS) break
  }
  if (keys.size === 0) return null
  const alternatives = [...keys.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
  return { pattern: new RegExp(`(?<!\\w)(?:${alternatives.join('|')})(?!\\w)`, 'g'), keys }
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

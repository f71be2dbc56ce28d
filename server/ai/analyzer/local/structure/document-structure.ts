/**
 * A contract's sentences typed by what they are (blockKind), with what only the whole document
 * shows: a short line repeated on three or more pages is a running header or footer (page
 * furniture), and the lettered paragraphs under a "RECITALS" / "BACKGROUND" heading are recitals
 * up to the words of agreement ("NOW, THEREFORE …", "agree as follows") or the first numbered
 * section. Decision 0110.
 */
import type { QuotedSpan } from '../../types'
import { blockKind, type BlockKind } from './block-kind'
import { definedTerm } from './defined-term'

/** A sentence with its kind; `defines` is the term a definition defines. */
export interface TypedSentence extends QuotedSpan {
  kind: BlockKind
  defines?: string
}

/** A line repeated this many times is a running header or footer (three pages at least). */
const REPEATS = 3

/** Running headers and footers are short: at most this many words. */
const FURNITURE_WORDS = 15

/** A modal verb: a line with one binds someone, however often it repeats. */
const MODAL = /\b(?:shall|will|must|may|agrees?|undertakes?)\b/i

/** The heading that opens a block of recitals. */
const RECITALS_HEADING =
  /^\W*(?:RECITALS?|BACKGROUND|PRELIMINARY\s+STATEMENTS?|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H)\W*$/i

/** What ends the recitals: the words of agreement or the first article or section. */
const AGREEMENT_WORDS =
  /\bNOW,?\s+THEREFORE\b|\bagree\s+as\s+follows\b|^\W*(?:ARTICLE|Article|SECTION|Section)\s+(?:1|I)\b|^\W*1\.(?:\d+\.?)?\s+[A-Z]/i

/** Recitals run at most this many sentences after their heading (a heading without an end). */
const MAX_RECITALS = 15

/**
 * Types each of `sentences` (segmentSentences of one document, in order). Returns one
 * TypedSentence per sentence, same order and spans. Pure; linear in the number of sentences;
 * never throws.
 */
export function documentStructure(sentences: readonly QuotedSpan[]): TypedSentence[] {
  const counts = new Map<string, number>()
  const keys = sentences.map((s) => furnitureKey(s.text))
  for (const key of keys) if (key) counts.set(key, (counts.get(key) ?? 0) + 1)
  let recitalsLeft = 0
  return sentences.map((sentence, i) => {
    const key = keys[i]
    let kind = blockKind(sentence.text)
    // A repeated promise ("Buyer shall pay $5 …" in a schedule) is no footer: only a line without
    // a modal verb can be running furniture.
    if (
      key &&
      (counts.get(key) ?? 0) >= REPEATS &&
      kind !== 'signature' &&
      !MODAL.test(sentence.text)
    )
      kind = 'page-furniture'
    if (RECITALS_HEADING.test(sentence.text)) recitalsLeft = MAX_RECITALS
    else if (recitalsLeft > 0) {
      if (AGREEMENT_WORDS.test(sentence.text)) recitalsLeft = 0
      else if (kind === 'operative') kind = 'recital'
      recitalsLeft -= 1
    }
    const typed: TypedSentence = {
      start: sentence.start,
      end: sentence.end,
      text: sentence.text,
      kind,
    }
    if (kind === 'definition') typed.defines = definedTerm(sentence.text) ?? undefined
    return typed
  })
}

/** The comparable form of a short line (digits dropped, so "Page 3" and "Page 4" match), or null. */
function furnitureKey(text: string): string | null {
  if (text.split(/\s+/).length > FURNITURE_WORDS) return null
  const key = text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim()
  return key.length >= 3 ? key : null
}

/**
 * Rule-based sentence compression for memo summaries, after the deletion approach of Knight &
 * Marcu 2002 ("Summarization beyond sentence extraction") reduced to the words speech adds
 * without meaning: fillers, hedges, leading discourse markers and articles (the "headline"
 * register of notes and minutes). Long results are cut at a clause boundary.
 */

/** Fillers of spoken English that carry no content ("um", "you know", "basically"). */
const FILLERS =
  /\b(?:um+|uh+|erm|er|ah|hmm+|you know|i mean|sort of|kind of|basically|actually|really|just|literally|obviously|honestly|very)\b,?\s*/giu

/** Hedges that frame a statement as the speaker's view without changing it. */
const HEDGES =
  /\b(?:i think|i guess|i believe|i suppose|i feel like|i'd say|it seems|in my opinion)(?:\s+that)?\b,?\s*/giu

/** Discourse markers that only link an utterance to the one before it. */
const LEADING =
  /^(?:(?:and|so|but|also|now|then|anyway|overall|okay|ok|alright|right|well|yeah|yes|oh)\b[,\s]*)+/iu

const ARTICLES = /\b(?:the|a|an)\s+/giu

/**
 * A condensed point is cut to this many words: a line of notes, not a paragraph (a bound chosen
 * so that a point fits one line of the voice screen's summary card).
 */
const MAX_WORDS = 16

/** Below this many words a cut at a comma would leave a fragment: cut at the word bound instead. */
const MIN_CLAUSE_WORDS = 5

/** `text` without fillers, hedges and leading discourse markers (articles and length kept). */
export function withoutFillers(text: string): string {
  return tidy(tidy(text.replace(FILLERS, ' ').replace(HEDGES, ' ')).replace(LEADING, ''))
}

/**
 * `text` condensed to a note: fillers, hedges, leading markers and articles removed, at most
 * MAX_WORDS words (cut at the last comma or semicolon that keeps MIN_CLAUSE_WORDS words, else
 * at MAX_WORDS with "…"), first letter upper-case, no final punctuation. '' when nothing is left.
 */
export function condense(text: string): string {
  const words = tidy(withoutFillers(text).replace(ARTICLES, ' ')).split(' ').filter(Boolean)
  let kept = words
  if (words.length > MAX_WORDS) {
    const head = words.slice(0, MAX_WORDS)
    let clauseEnd = -1
    head.forEach((word, i) => {
      if (/[,;:]$/u.test(word) && i + 1 >= MIN_CLAUSE_WORDS) clauseEnd = i
    })
    kept = clauseEnd >= 0 ? head.slice(0, clauseEnd + 1) : [...head, '…']
  }
  const note = kept.join(' ').replace(/[\s,;:.!?]+$/u, '')
  return note.charAt(0).toUpperCase() + note.slice(1)
}

/** Lower-case letters and digits separated by single spaces: how copies are told apart. */
export function normalizeForCompare(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

function tidy(text: string): string {
  return text
    .replace(/\s+([,;:.!?])/gu, '$1')
    .replace(/([,;:])(?:\s*[,;:])+/gu, '$1')
    .replace(/^[\s,;:]+/u, '')
    .replace(/\s+/gu, ' ')
    .trim()
}

/**
 * Content words as PostgreSQL's English full-text configuration sees them: runs of letters or
 * digits (apostrophes and hyphens split words, as its parser does), lower-cased, minus the
 * Snowball English stop words PostgreSQL ships (tsearch_data/english.stop), compared by their
 * Porter2 stem (the Snowball English stemmer PostgreSQL's `english_stem` uses).
 */
import stem from 'wink-porter2-stemmer'

/** PostgreSQL 15's tsearch_data/english.stop, verbatim. */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom ' +
    'this that these those am is are was were be been being have has had having do does did ' +
    'doing a an the and but if or because as until while of at by for with about against between ' +
    'into through during before after above below to from up down in out on off over under again ' +
    'further then once here there when where why how all any both each few more most other some ' +
    'such no nor not only own same so than too very s t can will just don should now'
  ).split(' '),
)

const WORD = /[a-z0-9]+/g

/**
 * Words stemmed so far, with their stems; emptied when it reaches STEMS_KEPT words (a few MB).
 * A search's WordNet expansion stems ~40 synonyms (query-expansion.ts), and the stemmer took ~1
 * ms of them per query on this machine, most of the expansion's time; the same words recur
 * from query to query (decision 0092).
 */
const stems = new Map<string, string>()
const STEMS_KEPT = 50_000

/** `word`'s Porter2 stem, remembered. */
function stemOf(word: string): string {
  let found = stems.get(word)
  if (found === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear()
    found = stem(word)
    stems.set(word, found)
  }
  return found
}

export interface WordToken {
  /** Lower-case word. */
  word: string
  /** Character offsets in the text. */
  start: number
  end: number
  /** Its Porter2 stem, or null for a stop word. */
  stem: string | null
}

/** Every word of `text` in order, stop words included (with `stem` null). */
export function wordTokensOf(text: string): WordToken[] {
  return [...text.toLowerCase().matchAll(WORD)].map((match) => ({
    word: match[0],
    start: match.index,
    end: match.index + match[0].length,
    stem: STOP_WORDS.has(match[0]) ? null : stemOf(match[0]),
  }))
}

/** The stems of the content words of `text`. */
export function contentStems(text: string): Set<string> {
  return new Set(wordTokensOf(text).flatMap((t) => (t.stem === null ? [] : [t.stem])))
}

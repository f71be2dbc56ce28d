/**
 * Word error rate (WER): the word-level Levenshtein distance (substitutions + deletions +
 * insertions) between a reference and a hypothesis, divided by the number of reference words,
 * after lower-casing and removing punctuation (apostrophes inside words are kept: "don't"; a
 * typographic apostrophe counts as the ASCII one, and text is NFKC-normalised first, so that
 * "don’t" in a reference matches a recogniser's "don't").
 */

/** `text` lower-cased, punctuation removed, split into words. */
export function normaliseWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .replace(/(^|\s)'+|'+(?=\s|$)/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
}

/** Edit operations between the word lists of `reference` and `hypothesis`, and the reference's length. */
export function wordErrors(
  reference: string,
  hypothesis: string,
): { errors: number; words: number } {
  const ref = normaliseWords(reference)
  return { errors: editDistance(ref, normaliseWords(hypothesis)), words: ref.length }
}

/**
 * Levenshtein distance between two sequences (of words, or the characters of strings): the
 * fewest substitutions, deletions and insertions turning `ref` into `hyp`. Two rows of the
 * dynamic programme: O(|ref|·|hyp|) time, O(|hyp|) memory.
 */
export function editDistance<T>(ref: ArrayLike<T>, hyp: ArrayLike<T>): number {
  let previous = Int32Array.from({ length: hyp.length + 1 }, (_, j) => j)
  let current = new Int32Array(hyp.length + 1)
  for (let i = 1; i <= ref.length; i++) {
    current[0] = i
    const r = ref[i - 1]
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = previous[j - 1]! + (r === hyp[j - 1] ? 0 : 1)
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1)
    }
    ;[previous, current] = [current, previous]
  }
  return previous[hyp.length]!
}

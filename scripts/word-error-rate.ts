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
  const hyp = normaliseWords(hypothesis)
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j)
  for (let i = 1; i <= ref.length; i++) {
    const current = [i]
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (ref[i - 1] === hyp[j - 1] ? 0 : 1)
      current[j] = Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1)
    }
    previous = current
  }
  return { errors: previous[hyp.length] ?? 0, words: ref.length }
}

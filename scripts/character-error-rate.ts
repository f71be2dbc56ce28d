/**
 * Character error rate (CER): the character-level Levenshtein distance (substitutions, deletions,
 * insertions) between a reference and a hypothesis, after NFKC normalisation and with every run of
 * white space made one space (line breaks and layout are not what OCR is judged on here).
 */
import { editDistance } from './word-error-rate'

/** `text` NFKC-normalised, white space collapsed to single spaces, trimmed. */
export function normaliseCharacters(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim()
}

/** Edit operations between the normalised `reference` and `hypothesis`, and the reference's length. */
export function characterErrors(
  reference: string,
  hypothesis: string,
): { errors: number; characters: number } {
  const ref = normaliseCharacters(reference)
  return { errors: editDistance(ref, normaliseCharacters(hypothesis)), characters: ref.length }
}

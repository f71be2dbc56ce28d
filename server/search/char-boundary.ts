/**
 * Cutting text without splitting a character: a UTF-16 string indexes code units, and a
 * character past U+FFFF (an emoji, some CJK) is two of them, a surrogate pair. A cut between the
 * two leaves an unpaired surrogate, which PostgreSQL's JSON refuses (`invalid input syntax for
 * type json`), so a stored passage, answer or note must never end or start inside a pair.
 */

/**
 * `index` (a code unit offset into `text`), moved back by one when it falls between the two
 * halves of a surrogate pair; indices outside (0, text.length) are returned as they are.
 */
export function charBoundary(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return index
  const before = text.charCodeAt(index - 1)
  const after = text.charCodeAt(index)
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff
    ? index - 1
    : index
}

/** The first `max` code units of `text` at most, never ending inside a surrogate pair. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, charBoundary(text, max))
}

/**
 * The demo's text limit (server/features/demo/routes.ts DEMO_MAX_TEXT_CHARS, the spec's 20,000
 * characters) and where a longer paste is cut before it is sent, so the page can say so rather
 * than let the textarea drop the rest without a word.
 */

/** Characters the demo analyses (UTF-16 code units, as the server's zod `max` counts them). */
export const DEMO_MAX_TEXT_CHARS = 20_000

/** How far back from the limit a cut looks for a space, so no word is split in two. */
const WORD_BOUNDARY_WINDOW = 200

/** A paste cut to the limit: the text kept, the pasted length, and the words the cut follows. */
export interface DemoTextCut {
  kept: string
  total: number
  /** The last words kept (about 60 characters), quoted to say where the analysis stops. */
  endsWith: string
}

/**
 * `text` cut to DEMO_MAX_TEXT_CHARS at the last space within WORD_BOUNDARY_WINDOW of the limit
 * (else at the limit, never inside a surrogate pair), or null when it fits.
 */
export function cutDemoText(text: string): DemoTextCut | null {
  if (text.length <= DEMO_MAX_TEXT_CHARS) return null
  let end = DEMO_MAX_TEXT_CHARS
  const space = text.lastIndexOf(' ', end)
  if (space > end - WORD_BOUNDARY_WINDOW) end = space
  else if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1
  const kept = text.slice(0, end).trimEnd()
  const tail = kept.slice(-60).replace(/\s+/g, ' ').trim()
  const endsWith = kept.length > 60 ? `…${tail.replace(/^\S*\s/, '')}` : tail
  return { kept, total: text.length, endsWith }
}

/**
 * Cuts a document into consecutive parts that each fit a model's configured context
 * (AI_ANALYSIS_CONTEXT_CHARS), so a long contract is read whole, part by part, instead of cut off.
 */

/** One part: its text and the offset of its first character in the document. */
export interface ContextWindow {
  start: number
  text: string
}

/**
 * Consecutive, non-overlapping parts of `content` of at most `maxChars` characters each (so every
 * quote found in a part maps back by adding `start`). A part ends at the last paragraph break in
 * its second half, else the last line break, else the last sentence end, else at `maxChars`, so
 * a clause is rarely split; whitespace between parts belongs to none. Empty content gives no part.
 * Throws RangeError when `maxChars` is not a positive integer.
 */
export function contextWindows(content: string, maxChars: number): ContextWindow[] {
  if (!Number.isInteger(maxChars) || maxChars < 1)
    throw new RangeError('maxChars must be a positive integer')
  const windows: ContextWindow[] = []
  let start = skipSpace(content, 0)
  while (start < content.length) {
    let end = Math.min(content.length, start + maxChars)
    if (end < content.length) end = breakBefore(content, start, end)
    const text = content.slice(start, end).trimEnd()
    if (text.length > 0) windows.push({ start, text })
    start = skipSpace(content, end)
  }
  return windows
}

/** The best place to end a part that may not go past `limit`: see contextWindows. */
function breakBefore(content: string, start: number, limit: number): number {
  const floor = start + Math.floor((limit - start) / 2)
  const slice = content.slice(start, limit)
  for (const pattern of [/\n[ \t]*\n/g, /\n/g, /[.;:!?](?=\s)/g]) {
    let last = -1
    for (const match of slice.matchAll(pattern)) last = match.index + match[0].length
    if (last > 0 && start + last > floor) return start + last
  }
  return limit
}

function skipSpace(content: string, from: number): number {
  let at = from
  while (at < content.length && /\s/.test(content[at] ?? '')) at += 1
  return at
}

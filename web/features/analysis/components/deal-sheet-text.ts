import type { DealSheet } from '../api/types'

/** Quotes longer than this many characters are shortened in the copied text, with an ellipsis. */
const QUOTE_CHARS = 300

/**
 * The deal sheet as Markdown a lawyer can paste into a memo: each line with its value or 'Not
 * found' and, under it, the quotes it was read from; then the points for a lawyer's attention.
 */
export function dealSheetMarkdown(title: string, sheet: DealSheet): string {
  const out = [`## ${title}`, '']
  for (const line of sheet.lines) {
    out.push(`- **${line.label}:** ${line.value ?? 'Not found'}`)
    for (const cite of line.citations) out.push(`  > ${shorten(cite.text)}`)
  }
  if (sheet.attention.length > 0) {
    out.push('', '### Points for a lawyer’s attention', '')
    for (const point of sheet.attention) {
      out.push(`- ${point.text}`)
      for (const cite of point.citations) out.push(`  > ${shorten(cite.text)}`)
    }
  }
  return out.join('\n')
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1)}…` : flat
}

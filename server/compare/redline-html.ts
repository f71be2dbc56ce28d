/**
 * A text-level redline as an HTML fragment (issue 46: PDF and text versions compare too), from a
 * comparison's merged stream: insertions in `<ins>`, deletions in `<del>`, a move's source in
 * `<del class="moved-from" data-move="N">` and its destination in
 * `<ins class="moved-to" data-move="N">`, everything else as escaped text. Line breaks stay "\n"
 * (render with `white-space: pre-wrap`). The fragment holds no attribute or element from the
 * texts: every character of them is escaped.
 */
import type { RedlineSegment } from './comparison'

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** The HTML fragment of `segments`. Pure; never throws; linear in the texts' length. */
export function redlineHtml(segments: readonly RedlineSegment[]): string {
  return segments
    .map((segment) => {
      const text = escapeHtml(segment.text)
      switch (segment.kind) {
        case 'equal':
          return text
        case 'inserted':
          return `<ins>${text}</ins>`
        case 'deleted':
          return `<del>${text}</del>`
        case 'moveFrom':
          return `<del class="moved-from" data-move="${segment.move ?? 0}">${text}</del>`
        case 'moveTo':
          return `<ins class="moved-to" data-move="${segment.move ?? 0}">${text}</ins>`
      }
    })
    .join('')
}

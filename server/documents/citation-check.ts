/**
 * The one check that a citation is its document's text (issue 44): offsets are JavaScript's
 * (UTF-16 code units, as every citation Lexdesk writes), so it is made on the text in JavaScript,
 * never in SQL, whose string functions count characters (an emoji is one there, two here). Used
 * by the review fill (features/reviews/answer-document.ts) and the archive import of reviews
 * (features/archives/import-reviews.ts).
 */

/** A cited span: `text` claimed to be `content.slice(start, end)`. */
export interface CitedSpan {
  start: number
  end: number
  text: string
}

/**
 * Whether every citation of `citations` is its document's slice (`content.slice(start, end)`
 * equals its `text`, within bounds and not empty); false for no citations at all, since an answer
 * needs one.
 */
export function citationsCheck(content: string, citations: readonly CitedSpan[]): boolean {
  return (
    citations.length > 0 &&
    citations.every(
      (c) => c.start < c.end && c.end <= content.length && content.slice(c.start, c.end) === c.text,
    )
  )
}

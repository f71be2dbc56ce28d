/**
 * Whether an extracted PDF text is too thin to be the document's text, so its pages are read by
 * OCR instead (decision 0053): fewer than MIN_CHARACTERS_PER_PAGE visible (non-space) characters
 * per page on average. A typed contract page holds 2,000 to 4,000; a scan holds none, or only
 * what a signing service stamped on it (an envelope id, a page number), well under 100.
 */

/** Visible characters per page below which a PDF's text layer counts as absent. */
export const MIN_CHARACTERS_PER_PAGE = 100

/** Whether `extracted` (a PDF's text and page count) should be recognised by OCR. */
export function needsOcr(extracted: { text: string; pages: number | null }): boolean {
  if (!extracted.pages) return false
  const visible = extracted.text.replace(/\s+/g, '').length
  return visible < MIN_CHARACTERS_PER_PAGE * extracted.pages
}

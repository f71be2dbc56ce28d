/**
 * Which pages of a PDF are scans to read by OCR (decision 0053, page by page since 0062). A page
 * is thin when it holds fewer visible (non-space) characters than MIN_CHARACTERS_PER_PAGE scaled
 * by its area against a US Letter page: a typed contract page holds 2,000 to 4,000, a scan none,
 * or only what a signing service stamped on it (an envelope id, a page number), well under 100.
 * - A PDF thin as a whole (its characters against its total area) is a scan: every page is read,
 *   images or not (text drawn as outlines has no text layer and no image either).
 * - Otherwise only its thin pages that paint an image are read: a scanned signature page in a
 *   typed contract, not a typed signature block or "this page is intentionally left blank".
 * So a PDF with a full text layer is never read by OCR.
 */
import { getResolvedPDFJS, type getDocumentProxy } from 'unpdf'

/** Visible characters on a US Letter page below which its text layer counts as absent. */
export const MIN_CHARACTERS_PER_PAGE = 100

/** A US Letter page's area in square points (612 × 792 pt). */
const LETTER_AREA_PT2 = 612 * 792

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>

/** One page's text layer and size in points. */
export interface PageText {
  text: string
  width: number
  height: number
}

const visible = (text: string) => text.replace(/\s+/g, '').length
const minimum = (areaPt2: number) => (MIN_CHARACTERS_PER_PAGE * areaPt2) / LETTER_AREA_PT2

/** Whether page `page` (1-based) of `pdf` paints an image, an inline image or a stencil mask. */
async function paintsImage(pdf: PdfDocument, page: number): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS()
  const images = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintInlineImageXObject,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObject,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
  ])
  const proxy = await pdf.getPage(page)
  const { fnArray } = await proxy.getOperatorList()
  proxy.cleanup()
  return fnArray.some((op) => images.has(op))
}

/** The pages (1-based, ascending) of `pdf`, whose text layers and sizes are `pages`, to OCR. */
export async function scannedPages(pdf: PdfDocument, pages: PageText[]): Promise<number[]> {
  const area = (p: PageText) => Math.abs(p.width * p.height)
  const total = pages.reduce((sum, p) => sum + visible(p.text), 0)
  const all = pages.map((_, index) => index + 1)
  if (total < minimum(pages.reduce((sum, p) => sum + area(p), 0))) return all
  const scanned: number[] = []
  for (const n of all) {
    const page = pages[n - 1]!
    if (visible(page.text) < minimum(area(page)) && (await paintsImage(pdf, n))) scanned.push(n)
  }
  return scanned
}

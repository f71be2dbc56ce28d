/**
 * A page image of a scan read by OCR (issue 26): rendered on demand from the stored PDF by
 * pdftoppm, under the OCR programs' isolation and limits (recognise-pdf.ts), so the viewer can
 * show the page a cited passage stands on. Nothing is stored: no second copy of the scan to keep,
 * move or delete with the document.
 */
import type { Principal } from '../../db/tenant'
import { AppError, notFound } from '../../errors/app-error'
import { renderPdfPage } from '../../ai/ocr/recognise-pdf'
import type { AppServices } from '../../services'
import { assertOrgKey } from '../../blob/blob-keys'
import { withBlobCopy } from '../../documents/with-blob-copy'
import { MAX_UPLOAD_BYTES } from './schemas'
import { ocrSettings } from './ocr-job'
import { getDocument } from './service'

/**
 * Long side of a viewer's page image in pixels: 1,600, a Letter page at ~145 dpi, sharp on a
 * laptop screen at full width; a page is ~150–300 KB of greyscale PNG.
 */
const VIEWER_LONG_SIDE_PX = 1600

/**
 * The PNG of page `page` (1-based) of document `id`. 404 when the document is not the
 * organisation's or has no such page; 409 `no_page_images` when it was not read by OCR (its text
 * came with it, so it has no page images); the OCR programs' errors otherwise.
 */
export async function documentPageImage(
  services: AppServices,
  principal: Principal,
  id: string,
  page: number,
): Promise<Buffer> {
  const row = await getDocument(services.db, principal, id)
  if (!row.pageStarts || !row.fileKey)
    throw new AppError(
      'no_page_images',
      'This document was not read by OCR: it has no page images.',
    )
  if (page > row.pageStarts.length)
    throw new AppError('not_found', `This document has no page image ${page}.`)
  assertOrgKey(principal.orgId, row.fileKey, 'documents')
  // Rendered from a private copy streamed from the store, never the whole PDF in memory (issue 24).
  const image = await withBlobCopy(services.blobs, row.fileKey, MAX_UPLOAD_BYTES, (file) =>
    renderPdfPage(file, page, VIEWER_LONG_SIDE_PX, {
      ...ocrSettings(services),
      orgId: principal.orgId,
    }),
  )
  if (!image) throw notFound('File')
  return image
}

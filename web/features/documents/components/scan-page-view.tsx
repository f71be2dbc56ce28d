import { useState } from 'react'
import { Button } from '../../../components/ui/button'
import { documentPageUrl } from '../api/documents-api'
import type { Span } from '../api/types'

interface ScanPageViewProps {
  orgId: string
  documentId: string
  /** Where each page's recognised text starts in the content (the API's `pageStarts`). */
  pageStarts: number[]
  /** The cited passage: its page is shown. */
  highlight: Span | null
}

/** The 1-based page whose text holds `offset`: the last page starting at or before it. */
export function pageOfOffset(pageStarts: number[], offset: number): number {
  let page = 1
  pageStarts.forEach((start, index) => {
    if (start <= offset) page = index + 1
  })
  return page
}

/**
 * The page images of a scan read by OCR, one at a time: the page of the cited passage when a
 * finding is chosen, otherwise the one picked with Previous / Next. The image comes from the
 * server (rendered from the stored PDF), so what the lawyer checks is the scan, not our reading.
 */
export function ScanPageView({ orgId, documentId, pageStarts, highlight }: ScanPageViewProps) {
  const pages = pageStarts.length
  const cited = highlight ? pageOfOffset(pageStarts, highlight.start) : null
  // The picked page, reset to the cited one whenever another passage is cited.
  const [picked, setPicked] = useState<{ page: number; for: number | null }>({
    page: cited ?? 1,
    for: cited,
  })
  const page = picked.for === cited ? picked.page : (cited ?? 1)
  const go = (next: number) => setPicked({ page: next, for: cited })
  return (
    <figure className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2 text-sm">
        <figcaption>
          Scanned page {page} of {pages}
          {cited === page && ' · holds the cited passage'}
        </figcaption>
        <div className="flex gap-1">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => go(page - 1)}
          >
            Previous page
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={page >= pages}
            onClick={() => go(page + 1)}
          >
            Next page
          </Button>
        </div>
      </div>
      <img
        src={documentPageUrl(orgId, documentId, page)}
        alt={`Scanned page ${page} of ${pages}`}
        loading="lazy"
        className="max-h-[70vh] w-full rounded-md border object-contain"
      />
    </figure>
  )
}

import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Skeleton } from '../../../components/ui/skeleton'
import { documentQuery } from '../api/documents-api'
import { DocumentViewer } from './document-viewer'
import { DocumentActions, type DocumentDialog } from './document-actions'
import { DocumentOcrStatus } from './document-ocr-status'
import { analyzeDisabledReason } from '../analyze-disabled-reason'
import { useDocumentOcr } from '../hooks/use-document-ocr'
import type { RenderDocumentAnalysis, Span } from '../api/types'

interface DocumentWorkspaceProps {
  orgId: string
  documentId: string
  renderAnalysis: RenderDocumentAnalysis
  /** The passage to highlight on opening (a search result or a citation), or null. */
  initialHighlight?: Span | null
  /** Extra facts shown above the document, e.g. its search-index state (composed by the app layer). */
  renderStatus?: (documentId: string) => ReactNode
  /** Runs once the document is deleted from its page. */
  onDeleted: () => void
  /**
   * Bumped each time the reader opens the document (0: not by the reader, e.g. a shared link):
   * once it is shown, its heading takes the keyboard focus.
   */
  focusRequest?: number
}

/** An opened document beside its analysis; choosing a finding highlights its passage. */
export function DocumentWorkspace({
  orgId,
  documentId,
  renderAnalysis,
  initialHighlight = null,
  renderStatus,
  onDeleted,
  focusRequest = 0,
}: DocumentWorkspaceProps) {
  const document = useQuery(documentQuery(orgId, documentId))
  const headingRef = useRef<HTMLHeadingElement>(null)
  const shown = document.status === 'success'
  useEffect(() => {
    // preventScroll: the screen scrolls the document into view itself, smoothly where allowed.
    if (shown && focusRequest > 0) headingRef.current?.focus({ preventScroll: true })
  }, [shown, focusRequest])
  const [highlight, setHighlight] = useState<Span | null>(initialHighlight)
  const [dialog, setDialog] = useState<DocumentDialog>(null)
  const ocr = useDocumentOcr(orgId, document.data)

  if (document.status === 'pending') {
    return (
      <div className="flex flex-col gap-2" aria-busy="true" aria-label="Loading document">
        <Skeleton className="h-8 w-1/2" />
        <Skeleton className="h-96" />
      </div>
    )
  }
  if (document.status === 'error') {
    return (
      <p role="alert" className="rounded-md border border-dashed p-4 text-sm text-destructive">
        Could not open the document: {document.error.message}
      </p>
    )
  }
  return (
    <div className="grid items-start gap-4 2xl:grid-cols-2">
      {/*
        Beside the analysis (2xl), sticky under the top bar, so a finding's passage stays in view
        while the findings scroll. Stacked above it (narrower screens), it scrolls away: sticky, it
        would slide over the analysis panel's header and its Listen button.
      */}
      <div className="flex flex-col gap-2 2xl:sticky 2xl:top-16 2xl:z-[5]">
        {renderStatus?.(documentId)}
        {ocr.scan && (
          <DocumentOcrStatus
            job={ocr.job}
            read={document.data.pageStarts !== null}
            onStart={() => ocr.start.mutate()}
            starting={ocr.start.isPending}
            startError={ocr.start.error?.message ?? null}
            onCancel={ocr.cancel}
          />
        )}
        <DocumentViewer
          orgId={orgId}
          document={document.data}
          highlight={highlight}
          headingRef={headingRef}
          actions={
            <DocumentActions
              orgId={orgId}
              document={document.data}
              dialog={dialog}
              onDialogChange={setDialog}
              onDeleted={onDeleted}
            />
          }
        />
      </div>
      {renderAnalysis({
        orgId,
        documentId,
        canAnalyze: document.data.content.trim() !== '',
        analyzeDisabledReason: analyzeDisabledReason(document.data, ocr.job),
        highlight,
        onSelectSpan: setHighlight,
      })}
    </div>
  )
}

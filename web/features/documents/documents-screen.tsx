import { ArrowLeft, FileText } from 'lucide-react'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { Button } from '../../components/ui/button'
import { spanFromParams } from '../../hooks/passage-link'
import { AddDocumentCard } from './components/add-document-card'
import { DocumentLibrary } from './components/document-library'
import { DocumentWorkspace } from './components/document-workspace'
import { scrollIntoViewGently } from './scroll-into-view-gently'
import type { OrgScope } from '../../lib/org-scope'
import type { RenderDocumentAnalysis, Span } from './api/types'

interface DocumentsScreenProps {
  /** The organisation, and the app whose documents the library lists and new ones go to. */
  scope: OrgScope
  /** The analysis shown beside an opened document (composed by the app layer). */
  renderAnalysis: RenderDocumentAnalysis
  /**
   * The library's "by meaning" mode (composed by the app layer): passages found by meaning; a
   * chosen passage opens its document highlighted.
   */
  renderMeaningSearch?: (props: {
    scope: OrgScope
    onOpenPassage: (documentId: string, span: Span) => void
  }) => ReactNode
  /** Facts shown above an opened document (composed by the app layer). */
  renderStatus?: (documentId: string) => ReactNode
}

/**
 * The Documents screen of one org: add and browse documents, open one to read and analyse it. The
 * open document is in the URL (`?document=<id>`), so a reload or a shared link reopens it. Opened
 * from the library (or a search by meaning), the document is brought into view where the two are
 * stacked (a phone: issue 43) and its heading takes the focus; "Back to documents" returns to the
 * card it was opened from.
 */
export function DocumentsScreen({
  scope,
  renderAnalysis,
  renderMeaningSearch,
  renderStatus,
}: DocumentsScreenProps) {
  const [searchParams, setSearchParams] = useSearchParams()
  const [mode, setMode] = useState<'words' | 'meaning'>('words')
  const selectedId = searchParams.get('document')
  const highlight = spanFromParams(searchParams)
  const setSelectedId = (id: string, span?: Span) =>
    setSearchParams(
      (params) => {
        params.set('document', id)
        params.delete('start')
        params.delete('end')
        if (span) {
          params.set('start', String(span.start))
          params.set('end', String(span.end))
        }
        return params
      },
      { replace: true },
    )
  // The library column and the opened document, to move between them on a phone.
  const libraryRef = useRef<HTMLDivElement>(null)
  const viewerRef = useRef<HTMLDivElement>(null)
  // The reader's latest open: which document, a count so reopening it reveals it again, and what
  // had the focus (its card, a passage found by meaning). Null: none yet, e.g. a shared link, which
  // leaves the page and the focus where they are.
  const [opened, setOpened] = useState<{
    id: string
    count: number
    opener: HTMLElement | null
  } | null>(null)
  const openByReader = (id: string, span?: Span) => {
    const active = window.document.activeElement
    const opener = active instanceof HTMLElement ? active : null
    setSelectedId(id, span)
    setOpened((last) => ({ id, count: (last?.count ?? 0) + 1, opener }))
  }
  const openedHere = opened !== null && opened.id === selectedId
  // The URL changes after the click's render: wait for the viewer of that document, once per open.
  const revealed = useRef(0)
  useEffect(() => {
    if (!opened || opened.id !== selectedId || revealed.current === opened.count) return
    revealed.current = opened.count
    scrollIntoViewGently(viewerRef.current, { onlyWhenStacked: true })
  }, [opened, selectedId])
  const backToList = () => {
    const library = libraryRef.current
    const opener = openedHere ? opened.opener : null
    // The card (or passage) it was opened from; after a shared link, the open document's card.
    const target =
      opener?.isConnected && library?.contains(opener)
        ? opener
        : (library?.querySelector<HTMLElement>('button[aria-current="true"]') ?? null)
    scrollIntoViewGently(target ?? library, { block: 'center' })
    target?.focus({ preventScroll: true })
  }
  const closeIfDeleted = (ids: string[]) => {
    if (selectedId && ids.includes(selectedId))
      setSearchParams(
        (params) => {
          for (const name of ['document', 'start', 'end']) params.delete(name)
          return params
        },
        { replace: true },
      )
  }
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Documents</h1>
        <p className="text-sm text-muted-foreground">
          Upload or paste a document, then analyse it for a summary, key terms, clauses and risks.
        </p>
      </header>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div ref={libraryRef} className="flex flex-col gap-6">
          <AddDocumentCard scope={scope} onAdded={(doc) => setSelectedId(doc.id)} />
          {renderMeaningSearch && (
            <div role="group" aria-label="Search mode" className="flex gap-2">
              <Button
                size="sm"
                variant={mode === 'words' ? 'default' : 'outline'}
                aria-pressed={mode === 'words'}
                onClick={() => setMode('words')}
              >
                Library
              </Button>
              <Button
                size="sm"
                variant={mode === 'meaning' ? 'default' : 'outline'}
                aria-pressed={mode === 'meaning'}
                onClick={() => setMode('meaning')}
              >
                By meaning
              </Button>
            </div>
          )}
          {mode === 'meaning' && renderMeaningSearch ? (
            renderMeaningSearch({ scope, onOpenPassage: openByReader })
          ) : (
            <DocumentLibrary
              scope={scope}
              selectedId={selectedId}
              onOpen={(id) => openByReader(id)}
              onDeleted={closeIfDeleted}
            />
          )}
        </div>
        {selectedId ? (
          // scroll-mt: revealed, the document stops below the sticky top bar (h-14), not under it.
          <div ref={viewerRef} className="flex scroll-mt-16 flex-col gap-2">
            {/* Stacked (a phone), the library is far above; side by side (lg) it is in view. */}
            <Button variant="ghost" size="sm" className="self-start lg:hidden" onClick={backToList}>
              <ArrowLeft aria-hidden="true" />
              Back to documents
            </Button>
            {/* Keyed so highlight and analysis state start fresh for each document. */}
            <DocumentWorkspace
              key={`${selectedId}:${highlight?.start ?? ''}:${highlight?.end ?? ''}`}
              initialHighlight={highlight}
              renderStatus={renderStatus}
              orgId={scope.orgId}
              documentId={selectedId}
              renderAnalysis={renderAnalysis}
              onDeleted={() => closeIfDeleted([selectedId])}
              focusRequest={openedHere ? opened.count : 0}
            />
          </div>
        ) : (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-10 text-center text-sm text-muted-foreground">
            <FileText className="size-8" aria-hidden="true" />
            <p>Open a document from the library to read and analyse it.</p>
          </div>
        )}
      </div>
    </div>
  )
}

import { FileText } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { Button } from '../../components/ui/button'
import { spanFromParams } from '../../lib/passage-link'
import { AddDocumentCard } from './add-document-card'
import { DocumentLibrary } from './document-library'
import { DocumentWorkspace } from './document-workspace'
import type { OrgScope } from '../../lib/org-scope'
import type { RenderDocumentAnalysis, Span } from './types'

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
 * open document is in the URL (`?document=<id>`), so a reload or a shared link reopens it.
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
        <div className="flex flex-col gap-6">
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
            renderMeaningSearch({ scope, onOpenPassage: setSelectedId })
          ) : (
            <DocumentLibrary
              scope={scope}
              selectedId={selectedId}
              onOpen={(id) => setSelectedId(id)}
              onDeleted={closeIfDeleted}
            />
          )}
        </div>
        {selectedId ? (
          // Keyed so highlight and analysis state start fresh for each document.
          <DocumentWorkspace
            key={`${selectedId}:${highlight?.start ?? ''}:${highlight?.end ?? ''}`}
            initialHighlight={highlight}
            renderStatus={renderStatus}
            orgId={scope.orgId}
            documentId={selectedId}
            renderAnalysis={renderAnalysis}
            onDeleted={() => closeIfDeleted([selectedId])}
          />
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

import { FileText } from 'lucide-react'
import { useSearchParams } from 'react-router'
import { AddDocumentCard } from './add-document-card'
import { DocumentLibrary } from './document-library'
import { DocumentWorkspace } from './document-workspace'
import type { OrgScope } from '../../lib/org-scope'
import type { RenderDocumentAnalysis } from './types'

interface DocumentsScreenProps {
  /** The organisation, and the app whose documents the library lists and new ones go to. */
  scope: OrgScope
  /** The analysis shown beside an opened document (composed by the app layer). */
  renderAnalysis: RenderDocumentAnalysis
}

/**
 * The Documents screen of one org: add and browse documents, open one to read and analyse it. The
 * open document is in the URL (`?document=<id>`), so a reload or a shared link reopens it.
 */
export function DocumentsScreen({ scope, renderAnalysis }: DocumentsScreenProps) {
  const [searchParams, setSearchParams] = useSearchParams()
  const selectedId = searchParams.get('document')
  const setSelectedId = (id: string) =>
    setSearchParams(
      (params) => {
        params.set('document', id)
        return params
      },
      { replace: true },
    )
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
          <DocumentLibrary scope={scope} selectedId={selectedId} onOpen={setSelectedId} />
        </div>
        {selectedId ? (
          // Keyed so highlight and analysis state start fresh for each document.
          <DocumentWorkspace
            key={selectedId}
            orgId={scope.orgId}
            documentId={selectedId}
            renderAnalysis={renderAnalysis}
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

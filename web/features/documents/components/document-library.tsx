import { FileText } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../../components/ui/button'
import { Skeleton } from '../../../components/ui/skeleton'
import { DocumentCard } from './document-card'
import { LibraryFilters } from './library-filters'
import type { OrgScope } from '../../../lib/org-scope'
import { useDocumentLibrary } from '../hooks/use-document-library'
import { BulkActionsBar } from './bulk-actions-bar'

interface DocumentLibraryProps {
  /** Lists this app's documents, or the whole organisation's when `appId` is null. */
  scope: OrgScope
  selectedId: string | null
  onOpen: (documentId: string) => void
  /** Runs with the ids of documents deleted from the library (one card's, or a selection's). */
  onDeleted: (documentIds: string[]) => void
}

/**
 * The org's documents, newest first, with search, type filter, loading, error and empty states;
 * each card renames and deletes its document, and ticked cards are deleted together.
 */
export function DocumentLibrary({ scope, selectedId, onOpen, onDeleted }: DocumentLibraryProps) {
  const library = useDocumentLibrary(scope)
  const headingId = useId()
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set())
  // Only cards on screen count: a search or a delete elsewhere may have removed ticked ones.
  const checked = library.documents.filter((doc) => ticked.has(doc.id))
  const tick = (id: string, on: boolean) =>
    setTicked((prev) => {
      const next = new Set(prev)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const forget = (ids: string[]) => {
    setTicked((prev) => new Set([...prev].filter((id) => !ids.includes(id))))
    onDeleted(ids)
  }
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          Library
        </h2>
        {library.status === 'success' && (
          <p className="text-xs text-muted-foreground" aria-live="polite">
            {library.documents.length < library.total
              ? `Showing ${library.documents.length} of ${library.total}`
              : `${library.total} ${library.total === 1 ? 'document' : 'documents'}`}
          </p>
        )}
      </div>
      <LibraryFilters
        search={library.search}
        onSearchChange={library.setSearch}
        type={library.type}
        onTypeChange={library.setType}
        types={library.types}
      />
      {library.documents.length > 0 && (
        <BulkActionsBar
          orgId={scope.orgId}
          shown={library.documents}
          checked={checked}
          onCheckAll={(on) => setTicked(new Set(on ? library.documents.map((d) => d.id) : []))}
          onDeleted={forget}
        />
      )}
      {library.status === 'pending' && (
        <div className="flex flex-col gap-2" aria-busy="true" aria-label="Loading documents">
          <Skeleton className="h-24" />
          <Skeleton className="h-24" />
          <Skeleton className="h-24" />
        </div>
      )}
      {library.status === 'error' && (
        <div className="flex flex-col items-start gap-2 rounded-md border border-dashed p-4 text-sm">
          <p>Failed to load documents.</p>
          <Button variant="outline" size="sm" onClick={library.retry}>
            Try again
          </Button>
        </div>
      )}
      {library.status === 'success' && library.documents.length === 0 && (
        <div className="flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
          <FileText className="size-6" aria-hidden="true" />
          {library.isFiltered ? (
            <p>No documents match your search.</p>
          ) : (
            <p>No documents yet. Upload a file or paste text to add your first one.</p>
          )}
        </div>
      )}
      {library.documents.length > 0 && (
        <ul aria-label="Documents" className="flex flex-col gap-2">
          {library.documents.map((doc) => (
            <li key={doc.id}>
              <DocumentCard
                orgId={scope.orgId}
                document={doc}
                selected={doc.id === selectedId}
                onOpen={onOpen}
                checked={ticked.has(doc.id)}
                onCheckedChange={(on) => tick(doc.id, on)}
                onDeleted={(id) => forget([id])}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

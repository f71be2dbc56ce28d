import { lazy, Suspense } from 'react'
import { DocumentsScreen } from '../features/documents/documents-screen'
import { useOrgScope } from '../lib/org-scope'
import { PassageSearch } from '../features/vector/passage-search'
import { PassageStatus } from '../features/vector/passage-status'

/**
 * The analysis feature (run form, history, the result panel and its tabs) loads when a document
 * is first opened, not with the library: the documents route stood at 248 of its 250 KiB gzip
 * budget (scripts/bundle-budgets.ts), and a library that is only browsed never shows it.
 */
const DocumentAnalysis = lazy(() =>
  import('../features/analysis/document-analysis').then((module) => ({
    default: module.DocumentAnalysis,
  })),
)

/**
 * Route element of /dashboard/:orgSlug/documents: the organisation's documents screen, with the
 * analysis feature composed beside an opened document, and the vector feature's search by
 * meaning and index state (features do not import each other).
 */
export function DocumentsRoute() {
  const scope = useOrgScope()
  // Keyed by org so switching organisation drops the open document and its highlight.
  return (
    <DocumentsScreen
      key={scope.orgId}
      scope={scope}
      renderAnalysis={(props) => (
        <Suspense
          fallback={
            <p role="status" className="text-sm text-muted-foreground">
              Loading the analysis…
            </p>
          }
        >
          <DocumentAnalysis {...props} />
        </Suspense>
      )}
      renderMeaningSearch={(props) => <PassageSearch {...props} />}
      renderStatus={(documentId) => <PassageStatus orgId={scope.orgId} documentId={documentId} />}
    />
  )
}

import { DocumentAnalysis } from '../features/analysis/document-analysis'
import { DocumentsScreen } from '../features/documents/documents-screen'
import { useOrgScope } from '../lib/org-scope'
import { PassageSearch } from '../features/vector/passage-search'
import { PassageStatus } from '../features/vector/passage-status'

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
      renderAnalysis={(props) => <DocumentAnalysis {...props} />}
      renderMeaningSearch={(props) => <PassageSearch {...props} />}
      renderStatus={(documentId) => <PassageStatus orgId={scope.orgId} documentId={documentId} />}
    />
  )
}

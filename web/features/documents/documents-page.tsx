import { RequireOrg } from '../../app/require-org'
import { DocumentsScreen } from './documents-screen'

/** Route element of /dashboard/documents: the library and analysis of the current organisation. */
export function DocumentsPage() {
  // Keyed by org so switching organisation drops the open document and its highlight.
  return <RequireOrg>{(orgId) => <DocumentsScreen key={orgId} orgId={orgId} />}</RequireOrg>
}

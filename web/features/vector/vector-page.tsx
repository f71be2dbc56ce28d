import { RequireOrg } from '../../app/require-org'
import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/vector: placeholder screen (Vector Store); shows the organization prompt, then a not-yet-available note. */
export function VectorPage() {
  return (
    <>
      <PageHeader
        title="Vector Store"
        description="Test semantic search over the organization’s indexed text."
      />
      <RequireOrg>
        {() => (
          <ComingSoon>
            <p>The vector search tester is not available yet.</p>
          </ComingSoon>
        )}
      </RequireOrg>
    </>
  )
}

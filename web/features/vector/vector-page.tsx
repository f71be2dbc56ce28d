import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/vector: placeholder screen (Vector Store); shows the organization prompt, then a not-yet-available note. */
export function VectorPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Vector Store"
        description="Test semantic search over the organization’s indexed text."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>The vector search tester is not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}

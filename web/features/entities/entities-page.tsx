import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/entities: placeholder screen (Entities); shows the organization prompt, then a not-yet-available note. */
export function EntitiesPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Entities"
        description="Typed records with JSON data belonging to the current organization."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>The entities table is not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}

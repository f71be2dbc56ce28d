import { RequireOrg } from '../../app/require-org'
import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/entities: placeholder screen (Entities); shows the organization prompt, then a not-yet-available note. */
export function EntitiesPage() {
  return (
    <>
      <PageHeader
        title="Entities"
        description="Typed records with JSON data belonging to the current organization."
      />
      <RequireOrg>
        {() => (
          <ComingSoon>
            <p>The entities table is not available yet.</p>
          </ComingSoon>
        )}
      </RequireOrg>
    </>
  )
}

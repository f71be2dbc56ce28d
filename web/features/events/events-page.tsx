import { RequireOrg } from '../../app/require-org'
import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/events: placeholder screen (Events); shows the organization prompt, then a not-yet-available note. */
export function EventsPage() {
  return (
    <>
      <PageHeader
        title="Events"
        description="The newest events recorded for the current organization."
      />
      <RequireOrg>
        {() => (
          <ComingSoon>
            <p>The events table is not available yet.</p>
          </ComingSoon>
        )}
      </RequireOrg>
    </>
  )
}

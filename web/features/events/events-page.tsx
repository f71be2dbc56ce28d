import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/events: placeholder screen (Events); shows the organization prompt, then a not-yet-available note. */
export function EventsPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Events"
        description="The newest events recorded for the current organization."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>The events table is not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}

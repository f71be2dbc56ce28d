import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'
import { EventsScreen } from './events-screen'

/** /dashboard/events: the organisation's newest events, once an organisation is chosen. */
export function EventsPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Events"
        description="The newest events recorded for the current organization."
      />
      {requireOrg((scope) => (
        <EventsScreen key={scope.orgId} scope={scope} />
      ))}
    </>
  )
}

import { PageHeader } from '../../components/page-header'
import { useOrgScope } from '../../lib/org-scope'
import { EventsScreen } from './events-screen'

/** /dashboard/:orgSlug/events: the newest events of the URL's organisation. */
export function EventsPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Events"
        description="The newest events recorded for the current organization."
      />
      <EventsScreen key={scope.orgId} scope={scope} />
    </>
  )
}

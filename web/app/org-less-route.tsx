import { PageHeader } from '../components/page-header'
import { LastOrgRedirect } from '../features/orgs/components/last-org-redirect'
import { DashboardShell } from './dashboard-shell'

/**
 * Route element of a dashboard address without an organisation (`/dashboard`, old links such as
 * `/dashboard/documents`): on to `screen` in the last-used organisation, or the first-run card.
 */
export function OrgLessRoute({ screen }: { screen: string }) {
  return (
    <DashboardShell>
      <div className="space-y-8">
        <PageHeader title="Dashboard" description="Welcome to Lexdesk." />
        <LastOrgRedirect screen={screen} />
      </div>
    </DashboardShell>
  )
}

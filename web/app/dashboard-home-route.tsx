import { DashboardHomePage } from '../features/dashboard/dashboard-home-page'
import { AssistantRoute } from './assistant-route'

/** Route element of /dashboard/:orgSlug: the home page with the assistant composed in. */
export function DashboardHomeRoute() {
  return <DashboardHomePage assistant={<AssistantRoute />} />
}

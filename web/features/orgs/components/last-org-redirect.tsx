import { useQuery } from '@tanstack/react-query'
import { Navigate, useSearchParams } from 'react-router'
import { LoadingScreen } from '../../../components/loading-screen'
import { readLastOrgHint } from '../../../lib/last-org-hint'
import { orgPath } from '../../../lib/org-path'
import { orgsQuery } from '../api/orgs'
import { CreateFirstOrgCard } from './create-first-org-card'

/**
 * A dashboard address without an organisation (`/dashboard`, or an old link such as
 * `/dashboard/documents?document=…`): redirects to `screen` (and the same search parameters) in
 * the organisation last opened in this browser if the user is still a member of it, else in their
 * first; a user without one gets the 'Create your organization' card.
 */
export function LastOrgRedirect({ screen }: { screen: string }) {
  const orgs = useQuery(orgsQuery())
  const [searchParams] = useSearchParams()
  if (orgs.isPending) return <LoadingScreen />
  if (orgs.error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Your organizations could not be loaded: {orgs.error.message}
      </p>
    )
  }
  const hint = readLastOrgHint()
  const org = orgs.data.find((o) => o.slug === hint) ?? orgs.data[0]
  if (!org) return <CreateFirstOrgCard />
  const params = Object.fromEntries(searchParams)
  return <Navigate to={orgPath({ orgSlug: org.slug }, screen, params)} replace />
}

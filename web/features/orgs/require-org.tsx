import type { ReactNode } from 'react'
import { Building2Icon } from 'lucide-react'
import { LoadingScreen } from '../../components/loading-screen'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import type { OrgScope } from '../../lib/org-scope'
import { CreateOrgForm } from './create-org-form'
import { useCurrentOrg } from './current-org'

/**
 * Renders `children({ orgId, appId })` once an organisation is chosen; otherwise the 'Select an
 * organization' prompt (with a create form when the user has none).
 */
export function RequireOrg({ children }: { children: (scope: OrgScope) => ReactNode }) {
  const { orgId, appId, orgs, isLoading, error } = useCurrentOrg()
  if (isLoading) return <LoadingScreen />
  if (orgId !== null) return <>{children({ orgId, appId })}</>
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        <Building2Icon className="size-6 text-muted-foreground" aria-hidden="true" />
        <CardTitle>Select an organization</CardTitle>
        <CardDescription>
          {error
            ? `Your organizations could not be loaded: ${error.message}`
            : orgs.length === 0
              ? 'You are not a member of any organization yet. Create one for your firm to get started, or ask an administrator to invite you.'
              : 'Choose an organization in the sidebar to see its data.'}
        </CardDescription>
      </CardHeader>
      {!error && orgs.length === 0 ? (
        <CardContent>
          <CreateOrgForm />
        </CardContent>
      ) : null}
    </Card>
  )
}

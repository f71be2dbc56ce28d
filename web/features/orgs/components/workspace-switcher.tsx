import { useId } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Label } from '../../../components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../../components/ui/select'
import { Skeleton } from '../../../components/ui/skeleton'
import { CreateAppDialog } from './create-app-dialog'
import { CreateOrgDialog } from './create-org-dialog'
import { useOrgScopeIfAny } from '../../../lib/org-scope'
import { appsQuery, orgsQuery } from '../api/orgs'
import { useOpenScope } from '../hooks/use-open-scope'

// Radix Select forbids '' as an item value, so 'All apps' needs a sentinel.
const ALL_APPS = '__all__'

/**
 * Organisation selector and app selector ('All apps' or one app), each with a '+' to create one.
 * They show the URL's scope and choosing navigates (the URL is the current organisation). A failed
 * load of the organisations says so, with the server's reason, rather than 'None yet'; a failed
 * load of the apps, rather than 'All apps' alone.
 */
export function WorkspaceSwitcher() {
  const scope = useOrgScopeIfAny()
  const orgsResult = useQuery(orgsQuery())
  const appsResult = useQuery({ ...appsQuery(scope?.orgId ?? ''), enabled: scope !== null })
  const openScope = useOpenScope()
  const orgLabelId = useId()
  const appLabelId = useId()
  const orgs = orgsResult.data ?? []
  const apps = scope === null ? [] : (appsResult.data ?? [])
  const orgSlug = scope?.orgSlug ?? null

  if (orgsResult.isPending) {
    return (
      <div className="space-y-2 p-1" role="status" aria-label="Loading organizations">
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
      </div>
    )
  }

  return (
    <div className="space-y-3 p-1">
      <div className="space-y-1">
        <Label htmlFor={orgLabelId} className="text-xs text-sidebar-foreground/70">
          Organization
        </Label>
        <div className="flex items-center gap-1">
          {orgsResult.isError ? (
            // Not 'None yet': the user has organisations we could not list, and would make a twin.
            <p id={orgLabelId} role="alert" className="flex-1 text-sm text-destructive">
              Could not load your organizations: {orgsResult.error.message}
            </p>
          ) : orgs.length > 0 ? (
            <Select
              value={orgSlug ?? undefined}
              onValueChange={(slug) => void openScope({ orgSlug: slug })}
            >
              <SelectTrigger id={orgLabelId} className="h-9 min-w-0 flex-1 bg-background">
                <SelectValue placeholder="Select an organization" />
              </SelectTrigger>
              <SelectContent>
                {orgs.map((org) => (
                  <SelectItem key={org.id} value={org.slug}>
                    {org.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          ) : (
            <p id={orgLabelId} className="flex-1 text-sm text-muted-foreground">
              None yet
            </p>
          )}
          <CreateOrgDialog />
        </div>
      </div>
      <div className="space-y-1">
        <Label htmlFor={appLabelId} className="text-xs text-sidebar-foreground/70">
          App
        </Label>
        <div className="flex items-center gap-1">
          <Select
            value={scope?.appSlug ?? ALL_APPS}
            onValueChange={(value) =>
              orgSlug && void openScope({ orgSlug, appSlug: value === ALL_APPS ? null : value })
            }
            disabled={scope === null}
          >
            <SelectTrigger id={appLabelId} className="h-9 min-w-0 flex-1 bg-background">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_APPS}>All apps</SelectItem>
              {apps.map((app) => (
                <SelectItem key={app.id} value={app.slug}>
                  {app.slug}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <CreateAppDialog disabled={scope === null} />
        </div>
        {scope !== null && appsResult.isError && (
          <p role="alert" className="text-xs text-destructive">
            Could not load the apps: {appsResult.error.message}
          </p>
        )}
      </div>
    </div>
  )
}

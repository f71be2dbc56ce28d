import { useId } from 'react'
import { Label } from '../../components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '../../components/ui/select'
import { Skeleton } from '../../components/ui/skeleton'
import { CreateAppDialog } from './create-app-dialog'
import { CreateOrgDialog } from './create-org-dialog'
import { useCurrentOrg } from './current-org'

// Radix Select forbids '' as an item value, so 'All apps' needs a sentinel.
const ALL_APPS = '__all__'

/** Organisation selector and app selector ('All apps' or one app), each with a '+' to create one. */
export function WorkspaceSwitcher() {
  const { orgs, orgId, setOrgId, apps, appId, setAppId, isLoading } = useCurrentOrg()
  const orgLabelId = useId()
  const appLabelId = useId()

  if (isLoading && orgs.length === 0) {
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
          {orgs.length > 0 ? (
            <Select value={orgId ?? undefined} onValueChange={setOrgId}>
              <SelectTrigger id={orgLabelId} className="h-9 min-w-0 flex-1 bg-background">
                <SelectValue placeholder="Select an organization" />
              </SelectTrigger>
              <SelectContent>
                {orgs.map((org) => (
                  <SelectItem key={org.id} value={org.id}>
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
            value={appId ?? ALL_APPS}
            onValueChange={(value) => setAppId(value === ALL_APPS ? null : value)}
            disabled={orgId === null}
          >
            <SelectTrigger id={appLabelId} className="h-9 min-w-0 flex-1 bg-background">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_APPS}>All apps</SelectItem>
              {apps.map((app) => (
                <SelectItem key={app.id} value={app.id}>
                  {app.slug}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <CreateAppDialog disabled={orgId === null} />
        </div>
      </div>
    </div>
  )
}

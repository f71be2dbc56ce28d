import { PageHeader } from '../../components/page-header'
import { useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import { ClonePanel } from './components/clone-panel'
import { ExportPanel } from './components/export-panel'
import { ImportPanel, type OwnedOrg } from './components/import-panel'

/**
 * /dashboard/:orgSlug/settings: Data Management (issue 27), the Export, Import and Clone panels
 * of the URL's organisation; `ownedOrgs` are the organisations the user owns (the composition
 * reads them: web/app/settings-route.tsx), `ownedOrgsError` why they could not be read (the
 * import then offers no existing organisation, and says why). Export, import and clone are an
 * owner's (the server answers anyone else 403): an admin or member is told so and offered none.
 */
export function SettingsPage({
  ownedOrgs,
  ownedOrgsError = null,
}: {
  ownedOrgs: OwnedOrg[]
  ownedOrgsError?: Error | null
}) {
  const { orgId } = useOrgScope()
  const role = useOrgRole()
  if (role !== 'owner')
    return (
      <>
        <PageHeader
          title="Data Management"
          description="Export, import and clone the organization’s data."
        />
        <p className="text-sm text-muted-foreground">
          Only the organization’s owners export, import or clone its data; you are{' '}
          {role === 'admin' ? 'an admin' : 'a member'} here.
        </p>
      </>
    )
  return (
    <>
      <PageHeader
        title="Data Management"
        description="Export, import and clone the organization’s data."
      />
      {ownedOrgsError && (
        <p role="alert" className="mb-4 text-sm text-destructive">
          Your organizations could not be loaded, so Import lists none to import into:{' '}
          {ownedOrgsError.message}
        </p>
      )}
      {/* Keyed by org: another organisation's page starts idle, not with this one's job or form. */}
      <div key={orgId} className="grid gap-4 lg:grid-cols-3">
        <ExportPanel orgId={orgId} />
        <ImportPanel orgId={orgId} ownedOrgs={ownedOrgs} />
        <ClonePanel orgId={orgId} orgName={ownedOrgs.find((org) => org.id === orgId)?.name} />
      </div>
    </>
  )
}

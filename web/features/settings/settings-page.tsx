import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import { useOrgScope } from '../../lib/org-scope'
import { ExportPanel } from './export-panel'

/** /dashboard/:orgSlug/settings: Data Management, with the Export panel; import and clone to come. */
export function SettingsPage() {
  const { orgId } = useOrgScope()
  return (
    <>
      <PageHeader
        title="Data Management"
        description="Export, import and clone the organization’s data."
      />
      <ExportPanel orgId={orgId} />
      <ComingSoon>
        <p>Import and clone are not available yet.</p>
      </ComingSoon>
    </>
  )
}

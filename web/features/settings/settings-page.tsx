import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/:orgSlug/settings: placeholder screen (Data Management); a not-yet-available note. */
export function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Data Management"
        description="Export, import and clone the organization’s data."
      />
      <ComingSoon>
        <p>Export, import and clone are not available yet.</p>
      </ComingSoon>
    </>
  )
}

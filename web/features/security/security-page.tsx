import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/:orgSlug/security: placeholder screen (Security); a not-yet-available note. */
export function SecurityPage() {
  return (
    <>
      <PageHeader
        title="Security"
        description="Tenant-scoped tokens and API keys for the current organization."
      />
      <ComingSoon>
        <p>Token minting and API-key management are not available yet.</p>
      </ComingSoon>
    </>
  )
}

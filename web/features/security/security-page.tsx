import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/security: placeholder screen (Security); shows the organization prompt, then a not-yet-available note. */
export function SecurityPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Security"
        description="Tenant-scoped tokens and API keys for the current organization."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>Token minting and API-key management are not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}

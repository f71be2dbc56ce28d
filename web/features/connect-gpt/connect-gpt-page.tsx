import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/connect-gpt: placeholder screen (Connect GPT); shows the organization prompt, then a not-yet-available note. */
export function ConnectGptPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Connect GPT"
        description="Use a custom AI assistant as an interface to your organization’s data."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>The connection guide is not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}

import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/conversations: placeholder screen (Conversations); shows the organization prompt, then a not-yet-available note. */
export function ConversationsPage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader
        title="Conversations"
        description="Conversations held in the current organization."
      />
      {requireOrg(() => (
        <ComingSoon>
          <p>The conversation list is not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}

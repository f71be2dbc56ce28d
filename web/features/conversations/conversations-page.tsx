import { RequireOrg } from '../../app/require-org'
import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/conversations: placeholder screen (Conversations); shows the organization prompt, then a not-yet-available note. */
export function ConversationsPage() {
  return (
    <>
      <PageHeader
        title="Conversations"
        description="Conversations held in the current organization."
      />
      <RequireOrg>
        {() => (
          <ComingSoon>
            <p>The conversation list is not available yet.</p>
          </ComingSoon>
        )}
      </RequireOrg>
    </>
  )
}

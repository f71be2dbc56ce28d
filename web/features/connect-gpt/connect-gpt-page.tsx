import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'

/** /dashboard/:orgSlug/connect-gpt: placeholder screen (Connect GPT); a not-yet-available note. */
export function ConnectGptPage() {
  return (
    <>
      <PageHeader
        title="Connect GPT"
        description="Use a custom AI assistant as an interface to your organization’s data."
      />
      <ComingSoon>
        <p>The connection guide is not available yet.</p>
      </ComingSoon>
    </>
  )
}

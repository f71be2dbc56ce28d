import { AssistantPanel } from '../features/assistant/assistant-panel'
import { useCurrentOrg } from '../features/orgs/current-org'

/**
 * The dashboard's assistant panel for the current organisation (a new one per organisation);
 * nothing until one is chosen, since the home page has its own onboarding for that.
 */
export function AssistantRoute() {
  const { orgId, appId } = useCurrentOrg()
  if (orgId === null) return null
  return <AssistantPanel key={orgId} scope={{ orgId, appId }} />
}

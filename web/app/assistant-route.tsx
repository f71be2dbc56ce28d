import { AssistantPanel } from '../features/assistant/assistant-panel'
import { useOrgScope } from '../lib/org-scope'

/** The dashboard home's assistant panel for the URL's organisation (a new one per organisation). */
export function AssistantRoute() {
  const scope = useOrgScope()
  return <AssistantPanel key={scope.orgId} scope={scope} />
}

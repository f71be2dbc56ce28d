import { useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { AssistantPanel } from '../features/assistant/assistant-panel'
import { documentListQuery } from '../features/documents/api'
import { useOrgScope } from '../lib/org-scope'

/**
 * The dashboard home's assistant panel for the URL's organisation (a new one per organisation),
 * limited to the documents named by `?ask=<id>` (repeatable; a document page's 'Ask about this
 * document').
 */
export function AssistantRoute() {
  const scope = useOrgScope()
  const [params] = useSearchParams()
  const ask = params.getAll('ask')
  const list = useQuery(documentListQuery(scope.orgId, { q: '', type: 'all', appId: scope.appId }))
  return (
    <AssistantPanel
      key={`${scope.orgId}:${ask.join(',')}`}
      scope={scope}
      documents={list.data?.items}
      documentsError={list.error}
      documentIds={ask}
    />
  )
}

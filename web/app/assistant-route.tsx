import { useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { AssistantPanel } from '../features/assistant/assistant-panel'
import { messagesQuery } from '../features/conversations/api'
import { documentListQuery } from '../features/documents/api/documents-api'
import { useOrgScope } from '../lib/org-scope'

/**
 * The dashboard home's assistant panel for the URL's organisation (a new one per organisation),
 * limited to the documents named by `?ask=<id>` (repeatable; a document page's 'Ask about this
 * document'), and continuing the conversation `?conversation=<id>` names (the conversations
 * page's 'Continue in the assistant'): its messages are shown and the next question joins it.
 */
export function AssistantRoute() {
  const scope = useOrgScope()
  const [params] = useSearchParams()
  const ask = params.getAll('ask')
  const conversationId = params.get('conversation')
  const list = useQuery(documentListQuery(scope.orgId, { q: '', type: 'all', appId: scope.appId }))
  const earlier = useQuery({
    ...messagesQuery(scope.orgId, conversationId ?? ''),
    enabled: conversationId !== null,
  })
  const continued =
    conversationId && earlier.data
      ? {
          id: conversationId,
          turns: earlier.data.items.map(({ role, content, citations }) => ({
            role,
            content,
            citations,
          })),
        }
      : undefined
  if (conversationId && earlier.isPending)
    return <p className="text-sm text-muted-foreground">Loading the conversation…</p>
  return (
    <>
      {earlier.isError && (
        <p role="alert" className="mb-2 text-sm text-destructive">
          The conversation could not be loaded: {earlier.error.message}
        </p>
      )}
      <AssistantPanel
        key={`${scope.orgId}:${ask.join(',')}:${continued?.id ?? ''}`}
        scope={scope}
        documents={list.data?.items}
        documentsError={list.error}
        documentIds={ask}
        conversation={continued}
      />
    </>
  )
}

/**
 * The first queries of the dashboard home (/dashboard/:orgSlug), for its route loader: the
 * overview's figures, and the assistant's (AssistantRoute's) document list and, when the address
 * continues a conversation (`?conversation=<id>`), its messages. The same query options as the
 * screen's, so it opens with them instead of 'Loading the conversation…'.
 */
import type { QueryClient } from '@tanstack/react-query'
import { messagesQuery } from '../features/conversations/api'
import { overviewQuery } from '../features/dashboard/api'
import { documentListQuery } from '../features/documents/api/documents-api'
import type { ScreenQueries } from './screen-loader'

export const dashboardHomeQueries: ScreenQueries = ({ orgId, appId, search }) => {
  const continued = search.get('conversation')
  return [
    (client) => client.prefetchQuery(overviewQuery(orgId, appId)),
    (client) => client.prefetchQuery(documentListQuery(orgId, { q: '', type: 'all', appId })),
    ...(continued
      ? [(client: QueryClient) => client.prefetchQuery(messagesQuery(orgId, continued))]
      : []),
  ]
}

/**
 * Conversations data access: pages of 50 newest first (spec §7), a conversation's messages, and
 * its renaming.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type Conversation = components['schemas']['Conversation']
export type Message = components['schemas']['Message']

/** The spec's conversation page size. */
export const CONVERSATION_PAGE_SIZE = 50

/** Pages of the org's (or app's) conversations; loading stops after a page of fewer than 50. */
export const conversationsQuery = (orgId: string, appId: string | null) =>
  infiniteQueryOptions({
    queryKey: ['orgs', orgId, 'conversations', { appId }] as const,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/conversations', {
          params: {
            path: { orgId },
            query: { limit: CONVERSATION_PAGE_SIZE, offset: pageParam, appId: appId ?? undefined },
          },
          signal,
        })
        .then(unwrap),
    getNextPageParam: (last, pages) =>
      last.items.length < CONVERSATION_PAGE_SIZE
        ? undefined
        : pages.length * CONVERSATION_PAGE_SIZE,
  })

/** The messages of one conversation, oldest first (up to 200). */
export const messagesQuery = (orgId: string, conversationId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'conversations', conversationId, 'messages'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/conversations/{conversationId}/messages', {
          params: { path: { orgId, conversationId }, query: { limit: 200 } },
          signal,
        })
        .then(unwrap),
  })

/** Names conversation `conversationId` `title`; rejects with the server's message (403, 404, 400). */
export function renameConversation(
  orgId: string,
  conversationId: string,
  title: string,
): Promise<Conversation> {
  return api
    .PATCH('/api/v1/orgs/{orgId}/conversations/{conversationId}', {
      params: { path: { orgId, conversationId } },
      body: { title },
    })
    .then(unwrap)
}

/**
 * The organisation's recent activity (issue 30), read by the dashboard home and the analytics
 * screen: the query factory, and what each event says and links to.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../lib/api'
import type { components } from '../lib/api-schema'
import { orgPath } from '../lib/org-path'

export type ActivityItem = components['schemas']['ActivityItem']

/** The newest events of the organisation, or of one app (`appId`), with who acted. */
export const activityQuery = (orgId: string, appId: string | null) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'activity', { appId }] as const,
    queryFn: ({ signal }): Promise<{ items: ActivityItem[] }> =>
      api
        .GET('/api/v1/orgs/{orgId}/analytics/activity', {
          params: { path: { orgId }, query: { appId: appId ?? undefined } },
          signal,
        })
        .then(unwrap),
  })

/** The verb of each kind of event (server/events/event-kinds.ts); others show their kind. */
const VERBS: Record<string, string> = {
  'document.uploaded': 'uploaded',
  'document.pasted': 'pasted',
  'document.renamed': 'renamed',
  'document.deleted': 'deleted',
  'analysis.finished': 'analysed a document',
  'entity.created': 'created an entity',
  'entity.updated': 'updated an entity',
  'entities.deleted': 'deleted entities',
  'entities.imported': 'imported entities',
  'recording.uploaded': 'recorded a voice note',
  'recording.transcribed': 'transcribed a recording',
  'recording.deleted': 'deleted a recording',
  'app.created': 'created an app',
  'assistant.asked': 'asked the assistant',
  'invitation.created': 'invited',
  'invitation.resent': 're-sent an invitation to',
  'invitation.cancelled': 'cancelled the invitation of',
  'invitation.declined': 'invitation declined by',
  'member.joined': 'joined',
  'member.role_changed': "changed a member's role",
  'member.removed': 'removed a member',
  'member.left': 'left',
  'key.created': 'created the API key',
  'key.revoked': 'revoked the API key',
  'bucket.created': 'created a bucket',
  'bucket.deleted': 'deleted a bucket',
  'object.uploaded': 'uploaded a file',
  'object.deleted': 'deleted a file',
  'org.exported': 'exported the organisation',
  'org.imported': 'imported an archive into the organisation',
  'org.cloned': 'cloned the organisation',
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/**
 * What `item` says ("Ana Pereira uploaded Lease of Unit 4") and the screen of the object it
 * names, in `scope`'s organisation and app; no link for what is gone (a deletion).
 */
export function describeActivity(
  item: ActivityItem,
  scope: { orgSlug: string; appSlug: string | null },
): { text: string; to: string | null } {
  const who = item.actor?.name ?? 'Lexdesk'
  const m = item.meta
  const object = text(m.title) ?? text(m.name) ?? text(m.email) ?? text(m.fileName) ?? ''
  const line = [who, VERBS[item.kind] ?? item.kind, object].filter(Boolean).join(' ')
  if (item.kind.endsWith('.deleted')) return { text: line, to: null }
  const documentId = text(m.documentId)
  const to = documentId
    ? orgPath(scope, 'documents', { document: documentId })
    : text(m.recordingId)
      ? orgPath(scope, 'voice')
      : text(m.entityId) || item.kind.startsWith('entities.')
        ? orgPath(scope, 'entities')
        : text(m.conversationId)
          ? orgPath(scope, 'conversations')
          : text(m.bucketId)
            ? orgPath(scope, 'storage')
            : text(m.keyId)
              ? orgPath(scope, 'security')
              : item.kind.startsWith('member.') || item.kind.startsWith('invitation.')
                ? orgPath(scope, 'members')
                : item.kind.startsWith('org.')
                  ? orgPath(scope, 'settings')
                  : null
  return { text: line, to }
}

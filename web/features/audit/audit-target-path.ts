/** Where an audit entry's target opens in the dashboard, if anywhere. */
import { orgPath } from '../../lib/org-path'
import type { OrgUrlScope } from '../../lib/org-scope'
import type { AuditEntry } from './api'

/**
 * The screen showing each kind of target, and the search parameter that opens the one target
 * there (web/lib/use-linked-id.ts): the document, the entity alone in its table, the recording,
 * the conversation's messages, the member's row or the pending invitation.
 */
const TARGET_SCREENS: Record<string, { screen: string; param: string }> = {
  document: { screen: 'documents', param: 'document' },
  entity: { screen: 'entities', param: 'entity' },
  recording: { screen: 'voice', param: 'recording' },
  conversation: { screen: 'conversations', param: 'conversation' },
  member: { screen: 'members', param: 'member' },
  invitation: { screen: 'members', param: 'invitation' },
}

/**
 * The dashboard address of `entry`'s target in the organisation of `scope` (all apps), or null
 * when the target is gone or has no screen.
 */
export function auditTargetPath(
  scope: Pick<OrgUrlScope, 'orgSlug'>,
  entry: Pick<AuditEntry, 'targetType' | 'targetId' | 'targetExists'>,
): string | null {
  const target = TARGET_SCREENS[entry.targetType]
  if (!target || !entry.targetExists || !entry.targetId) return null
  return orgPath({ orgSlug: scope.orgSlug }, target.screen, { [target.param]: entry.targetId })
}

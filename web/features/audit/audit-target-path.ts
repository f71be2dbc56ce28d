/** Where an audit entry's target opens in the dashboard, if anywhere. */
import { orgPath } from '../../lib/org-path'
import type { OrgUrlScope } from '../../lib/org-scope'
import type { AuditEntry } from './api'

/**
 * The screen showing each kind of target, and the search parameter selecting the target there
 * (documents open the one document; other screens list their kind, and are opened at the list).
 */
const TARGET_SCREENS: Record<string, { screen: string; param?: string }> = {
  document: { screen: 'documents', param: 'document' },
  entity: { screen: 'entities' },
  recording: { screen: 'voice' },
  conversation: { screen: 'conversations' },
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
  return orgPath(
    { orgSlug: scope.orgSlug },
    target.screen,
    target.param ? { [target.param]: entry.targetId } : {},
  )
}

/**
 * The organisation's event log (issue 9): what happened, in words a person reads on
 * /dashboard/events. Features call `recordEvent` inside the tenant transaction of the action
 * itself, so a rolled-back action leaves no event. Infrastructure, not a feature, because every
 * feature writes events and features do not import each other.
 *
 * Kinds in use (a dotted `subject.verb`): `document.uploaded`, `document.pasted`,
 * `document.deleted`, `analysis.finished`, `entity.created`, `entity.updated`, `entities.deleted`,
 * `entities.imported`, `recording.uploaded`, `recording.transcribed`, `recording.deleted`,
 * `app.created`, `assistant.asked`, and the team's (written by server/auth/membership-audit.ts): `invitation.created`,
 * `invitation.resent`, `invitation.cancelled`, `invitation.declined`, `member.joined`,
 * `member.role_changed`, `member.removed`, `member.left`; later features add theirs (e.g. `key.created`). `meta` is small JSON naming the
 * subject (ids, counts, titles), never document text, tokens or secrets.
 */
import { events } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'

/**
 * Appends one event of `kind` (at most 100 characters) with JSON `meta` to the principal's
 * organisation, in transaction `tx` (which must be a `withTenant` transaction of that org).
 * `appId` files it under an app of the organisation; absent, under the principal's own app when
 * it is app-scoped (it may write no organisation-wide row, decision 0048), else organisation-wide.
 */
export async function recordEvent(
  tx: Tx,
  principal: Pick<Principal, 'orgId' | 'appId'>,
  kind: string,
  meta: Record<string, unknown> = {},
  appId: string | null = principal.appId ?? null,
): Promise<void> {
  await tx.insert(events).values({ orgId: principal.orgId, appId, kind: kind.slice(0, 100), meta })
}

/**
 * The organisation's event log (issue 9): what happened, in words a person reads on
 * /dashboard/events, and live on the realtime channel (the `events` table is announced by its
 * trigger, decision 0052). Features call `recordEvent` inside the tenant transaction of the
 * action itself, so a rolled-back action leaves no event. Infrastructure, not a feature, because
 * every feature writes events and features do not import each other. The kinds and the metadata
 * of each are the closed catalogue of event-kinds.ts: a new kind is a line there.
 */
import { events } from '../db/schema'
import type { Principal, Tx } from '../db/tenant'
import { EVENT_KINDS, type EventKind, type EventMeta } from './event-kinds'

/**
 * Appends one event of `kind` with `meta` to the principal's organisation, in transaction `tx`
 * (which must be a `withTenant` transaction of that org). `appId` files it under an app of the
 * organisation; absent, under the principal's own app when it is app-scoped (it may write no
 * organisation-wide row, decision 0048), else organisation-wide. The principal's user, if any,
 * is recorded as the actor (who did what; the active users of analytics, decision 0060). Throws a ZodError, failing the
 * action's transaction, when `meta` does not match the kind's schema: a programming error, never
 * the caller's input.
 */
export async function recordEvent<K extends EventKind>(
  tx: Tx,
  principal: Pick<Principal, 'orgId' | 'appId'> & { userId?: string | null },
  kind: K,
  meta: EventMeta<K>,
  appId: string | null = principal.appId ?? null,
): Promise<void> {
  const checked = EVENT_KINDS[kind].parse(meta) as Record<string, unknown>
  await tx.insert(events).values({
    orgId: principal.orgId,
    appId,
    kind,
    meta: checked,
    actorId: principal.userId ?? null,
  })
}

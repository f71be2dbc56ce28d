/** The event log, read side: newest first, at most EVENT_LIST_LIMIT a page (spec: limit 100). */
import { desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { events } from '../../db/schema'
import type { Principal } from '../../db/tenant'
import { readListPage } from '../../lists/list-kit'

export const EVENT_LIST_LIMIT = 100

/**
 * The organisation's events newest first (walking events_org_created_idx or its kind twin), the
 * number matching, and the distinct kinds (for the filter).
 */
export async function listEvents(
  db: Db,
  principal: Principal,
  query: { kind?: string; limit: number; offset: number },
) {
  const where = query.kind ? eq(events.kind, query.kind) : undefined
  const {
    rows,
    total,
    also: [kinds],
  } = await readListPage(db, principal, query, (tx) => ({
    rows: tx.select().from(events).where(where).orderBy(desc(events.createdAt), desc(events.id)),
    total: tx.$count(events, where),
    also: [
      // Loose index scan over events_org_kind_created_idx: one probe per distinct kind.
      tx.execute<{ kind: string }>(sql`
        with recursive k(kind) as (
          (select kind from events order by kind limit 1)
          union all
          select (select e.kind from events e where e.kind > k.kind order by e.kind limit 1)
          from k where k.kind is not null)
        select kind from k where kind is not null`),
    ],
  }))
  return {
    items: rows.map((r) => ({
      id: r.id,
      appId: r.appId,
      kind: r.kind,
      meta: r.meta as Record<string, unknown>,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
    kinds: (kinds as unknown as { rows: { kind: string }[] }).rows.map((r) => r.kind),
  }
}

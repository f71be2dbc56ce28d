/**
 * The notifier seam on embedded PGlite and the change triggers behind it: a committed change to an
 * allow-listed table is announced once per organisation with its ids, a rolled-back one never,
 * a large one by count without ids; sessions announce their end.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { openTestDatabase, newOrganisations } from '../test/test-database'
import { entities, events, storageBuckets, storageObjects } from '../db/schema'
import { ChangeFeed, type TableChange } from './change-feed'
import { createNotifier } from './notifier'
import { REALTIME_TABLES } from './realtime-tables'

const database = await openTestDatabase()
const log = { warn: () => {} }
const notifier = createNotifier(database, log)
const feed = new ChangeFeed(notifier, log)
await feed.start()
afterAll(async () => {
  await feed.close()
  await notifier.close()
  await database.close()
})

/** Collects the changes to public.entities of organisation `orgId` until `until` holds. */
async function changesOf(
  orgId: string,
  act: () => Promise<unknown>,
  until: (seen: TableChange[]) => boolean,
): Promise<TableChange[]> {
  const seen: TableChange[] = []
  const stop = feed.subscribe('public.entities', (c) => {
    if (c.org_id === orgId) seen.push(c)
  })
  try {
    await act()
    await expect.poll(() => until(seen)).toBe(true)
    return seen
  } finally {
    stop()
  }
}

describe('change triggers', () => {
  it('announces one insert statement per organisation, with the ids of its rows', async () => {
    const [a, b] = (await newOrganisations(database, 2)) as [string, string]
    const inserted: Array<{ id: string; orgId: string }> = []
    const seenA = changesOf(
      a,
      async () => {},
      (s) => s.length > 0,
    )
    const seenB = changesOf(
      b,
      async () => {},
      (s) => s.length > 0,
    )
    inserted.push(
      ...(await database.db
        .insert(entities)
        .values([
          { orgId: a, name: 'One' },
          { orgId: a, name: 'Two' },
          { orgId: b, name: 'Three' },
        ])
        .returning({ id: entities.id, orgId: entities.orgId })),
    )
    const [changeA] = await seenA
    const [changeB] = await seenB
    expect(changeA).toMatchObject({
      table: 'public.entities',
      op: 'insert',
      count: 2,
      app_id: null,
    })
    expect(new Set(changeA?.ids)).toEqual(
      new Set(inserted.filter((r) => r.orgId === a).map((r) => r.id)),
    )
    expect(changeB).toMatchObject({ op: 'insert', count: 1, ids: [inserted[2]?.id] })
  })

  it('announces nothing for a rolled-back change, and updates and deletes as they commit', async () => {
    const [a] = (await newOrganisations(database, 1)) as [string]
    const seen = await changesOf(
      a,
      async () => {
        await database.db
          .transaction(async (tx) => {
            await tx.insert(entities).values({ orgId: a, name: 'Never' })
            throw new Error('roll back')
          })
          .catch(() => {})
        const [row] = await database.db
          .insert(entities)
          .values({ orgId: a, name: 'Kept' })
          .returning({ id: entities.id })
        await database.db.execute(sql`UPDATE entities SET name = 'Renamed' WHERE org_id = ${a}`)
        await database.db.execute(sql`DELETE FROM entities WHERE org_id = ${a}`)
        return row
      },
      (s) => s.some((c) => c.op === 'delete'),
    )
    expect(seen.map((c) => [c.op, c.count])).toEqual([
      ['insert', 1],
      ['update', 1],
      ['delete', 1],
    ])
  })

  it('sends the count but no ids for a statement changing more than 100 rows', async () => {
    const [a] = (await newOrganisations(database, 1)) as [string]
    const rows = Array.from({ length: 101 }, (_, i) => ({ orgId: a, name: `E${i}` }))
    const [change] = await changesOf(
      a,
      () => database.db.insert(entities).values(rows),
      (s) => s.length > 0,
    )
    expect(change).toMatchObject({ count: 101, ids: null })
  })

  it('announces the app of the rows, and events of the event log', async () => {
    const [a] = (await newOrganisations(database, 1)) as [string]
    const seen: TableChange[] = []
    const stop = feed.subscribe('public.events', (c) => c.org_id === a && seen.push(c))
    await database.db.insert(events).values({ orgId: a, kind: 'entity.created', meta: {} })
    await expect.poll(() => seen.length).toBe(1)
    stop()
    expect(seen[0]).toMatchObject({ table: 'public.events', op: 'insert', count: 1 })
    expect(seen[0]?.ids?.[0]).toMatch(/^\d+$/)
  })

  it('announces the end of a session by its id', async () => {
    const ended: string[] = []
    const stop = await notifier.listen('lexdesk_sessions', (id) => ended.push(id))
    await database.db.execute(
      sql`INSERT INTO "user" (id, name, email) VALUES ('u-rt', 'U', 'u-rt@example.test')`,
    )
    await database.db.execute(
      sql`INSERT INTO session (id, token, user_id, expires_at) VALUES ('s-rt', 't-rt', 'u-rt', now() + interval '1 day')`,
    )
    await database.db.execute(sql`DELETE FROM session WHERE id = 's-rt'`)
    await expect.poll(() => ended).toEqual(['s-rt'])
    await stop()
  })
})

describe('storage changes', () => {
  it('announces a new bucket and object of an organisation on their tables, so screens refresh', async () => {
    const [orgId] = (await newOrganisations(database, 1)) as [string]
    const seen: TableChange[] = []
    const stops = (['public.storage_buckets', 'public.storage_objects'] as const).map((table) =>
      feed.subscribe(table, (c) => {
        if (c.org_id === orgId) seen.push(c)
      }),
    )
    try {
      const [bucket] = await database.db
        .insert(storageBuckets)
        .values({ orgId, name: 'live-files' })
        .returning({ id: storageBuckets.id })
      const [object] = await database.db
        .insert(storageObjects)
        .values({
          orgId,
          bucketId: bucket?.id ?? '',
          name: 'memo.txt',
          fileKey: `orgs/${orgId}/buckets/${bucket?.id}/x`,
          sizeBytes: 4,
          contentType: 'text/plain',
        })
        .returning({ id: storageObjects.id })
      await expect.poll(() => seen.length).toBe(2)
      expect(seen).toEqual([
        expect.objectContaining({
          table: 'public.storage_buckets',
          op: 'insert',
          ids: [bucket?.id],
        }),
        expect.objectContaining({
          table: 'public.storage_objects',
          op: 'insert',
          ids: [object?.id],
        }),
      ])
    } finally {
      for (const stop of stops) stop()
    }
  })
})

describe('the allow-list', () => {
  it('names exactly the tables that have change triggers, each with the columns it sends', async () => {
    const result = await database.db.execute(sql`
      SELECT DISTINCT event_object_schema || '.' || event_object_table AS name
      FROM information_schema.triggers WHERE action_statement LIKE '%lexdesk_notify_change%'`)
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
      name: string
    }>
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(REALTIME_TABLES).sort())
    for (const [name, table] of Object.entries(REALTIME_TABLES)) {
      await database.db.execute(
        sql.raw(`SELECT ${table.columns.join(', ')} FROM ${name} WHERE false`),
      )
    }
  })
})

/**
 * The event log's closed catalogue: an event is recorded with the metadata its kind's schema
 * allows, and refused (with its whole transaction) with anything else, such as a stray field
 * that could carry document text.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { openTestDatabase, newOrganisations } from '../test/test-database'
import { events } from '../db/schema'
import { withTenant } from '../db/tenant'
import { recordEvent } from './record-event'
import { EVENT_KINDS } from './event-kinds'

const database = await openTestDatabase()
afterAll(() => database.close())

const kindsOf = async (orgId: string) =>
  (await database.db.select().from(events).where(eq(events.orgId, orgId))).map((e) => [
    e.kind,
    e.meta,
  ])

describe('recordEvent', () => {
  it('records an event of a catalogued kind with its metadata', async () => {
    const [orgId] = (await newOrganisations(database, 1)) as [string]
    await withTenant(database.db, { orgId }, (tx) =>
      recordEvent(tx, { orgId }, 'entity.created', { entityId: 'e-1', type: 'client' }),
    )
    expect(await kindsOf(orgId)).toEqual([['entity.created', { entityId: 'e-1', type: 'client' }]])
  })

  it('refuses metadata outside the kind schema, and the action with it', async () => {
    const [orgId] = (await newOrganisations(database, 1)) as [string]
    await expect(
      withTenant(database.db, { orgId }, (tx) =>
        recordEvent(tx, { orgId }, 'document.uploaded', {
          documentId: 'd-1',
          title: 'Lease',
          // @ts-expect-error: `content` is not in document.uploaded's metadata
          content: 'The whole text of the lease',
        }),
      ),
    ).rejects.toThrow(/content/)
    await expect(
      withTenant(database.db, { orgId }, (tx) =>
        // @ts-expect-error: not a catalogued kind
        recordEvent(tx, { orgId }, 'document.whispered', {}),
      ),
    ).rejects.toThrow()
    expect(await kindsOf(orgId)).toEqual([])
  })

  it('names every kind as subject.verb', () => {
    for (const kind of Object.keys(EVENT_KINDS)) expect(kind).toMatch(/^[a-z]+\.[a-z_]+$/)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { auditLogs } from '../db/schema'
import { withTenant, type Principal } from '../db/tenant'
import { insertOrganisations, openTestDatabase } from '../test/test-database'
import { recordAudit } from './record-audit'

let database: Database
const orgId = 'audit-org'

beforeAll(async () => {
  database = await openTestDatabase()
  await insertOrganisations(database, orgId)
})
afterAll(() => database.close())

/** Records one audit row as `principal` and reads back its actor columns. */
async function actorOf(principal: Principal) {
  const action = `test.${crypto.randomUUID()}`
  await withTenant(database.db, principal, (tx) =>
    recordAudit(tx, principal, action, { type: 'thing', id: null }),
  )
  const rows = await withTenant(database.db, principal, (tx) =>
    tx
      .select({
        actorType: auditLogs.actorType,
        actorId: auditLogs.actorId,
        credentialId: auditLogs.credentialId,
      })
      .from(auditLogs)
      .where(sql`${auditLogs.action} = ${action}`),
  )
  return rows
}

describe('recordAudit', () => {
  it('records a person as a user with their id and no credential', async () => {
    const principal: Principal = { orgId, userId: 'u-1', role: 'member', actorType: 'user' }
    expect(await actorOf(principal)).toEqual([
      { actorType: 'user', actorId: 'u-1', credentialId: null },
    ])
  })

  it('records a principal without a user as the system', async () => {
    const principal: Principal = { orgId, userId: null, role: 'member', actorType: 'user' }
    expect(await actorOf(principal)).toEqual([
      { actorType: 'system', actorId: null, credentialId: null },
    ])
  })

  it('records the credential a principal acts through beside its user', async () => {
    const principal: Principal = {
      orgId,
      userId: 'u-2',
      role: 'admin',
      actorType: 'api_key',
      credentialId: 'key-7',
    }
    expect(await actorOf(principal)).toEqual([
      { actorType: 'api_key', actorId: 'u-2', credentialId: 'key-7' },
    ])
  })

  it('refuses an actor type the database does not know', async () => {
    const attempt = withTenant(database.db, { orgId }, (tx) =>
      tx.insert(auditLogs).values({
        orgId,
        actorType: 'robot' as never,
        action: 'x',
        targetType: 'x',
      }),
    )
    await expect(attempt).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/audit_logs_actor_type_check/) },
    })
  })
})

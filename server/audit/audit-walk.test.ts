/**
 * The audit walk: every operation of the OpenAPI document that declares the `write` scope
 * (`x-scope`), read at test time, leaves at least one audit row naming its actor when an owner
 * calls it with a valid request. A route that changes nothing declares `scope: 'read'` (a search
 * sent as POST, say) and is left out by that declaration, never by name; a write route added
 * later is covered without editing this file, and fails here until it records its audit entry
 * (or until operation-walk.ts knows a valid body for it).
 */
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember } from '../test/test-app'
import { operationRequests, readOperations } from '../test/operation-walk'

const t = await buildTestApp()
afterAll(() => t.close())

const writes = (await readOperations(t)).filter((op) => op.scope === 'write')

/** The audit rows of organisation `orgId`, oldest first. */
async function auditRows(orgId: string) {
  const result = await t.database.db.execute<{
    action: string
    actor_type: string
    actor_id: string
  }>(
    sql`select action, actor_type, actor_id from audit_logs where org_id = ${orgId}
        order by created_at, id`,
  )
  return (result as unknown as { rows: { action: string; actor_type: string; actor_id: string }[] })
    .rows
}

describe('the audit walk', () => {
  it('finds the write operations in the OpenAPI document', () => {
    expect(writes.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['createEntity', 'updateEntity', 'chat', 'deleteDocument']),
    )
  })

  it.each(writes)('$operationId ($method $path) leaves an audit entry', async (op) => {
    const owner = await signedInMember(t, `Audit ${op.operationId}`)
    const { request, exact } = await operationRequests(t, owner).requestFor(op, owner)
    expect(exact, `give ${op.operationId} a valid request in operation-walk.ts`).toBe(true)
    const before = (await auditRows(owner.orgId)).length
    const res = await t.app.inject({ ...request, headers: owner.headers })
    expect(res.statusCode, res.body).toBeLessThan(300)
    const added = (await auditRows(owner.orgId)).slice(before)
    expect(added.length, `${op.operationId} recorded no audit entry`).toBeGreaterThan(0)
    // The owner acts: as a person (`user`), or through the channel an operation records, such
    // as `gpt` for log_gpt_action; never as the anonymous system.
    for (const row of added) {
      expect(row).toMatchObject({ actor_id: owner.userId })
      expect(row.actor_type).not.toBe('system')
    }
  })
})

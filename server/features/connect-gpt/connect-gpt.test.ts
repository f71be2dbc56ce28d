import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { createTestCredentials } from '../../test/test-credentials'
import { withTenant } from '../../db/tenant'
import { conversations, messages, orgSettings } from '../../db/schema'

const credentials = createTestCredentials()
const t = await buildTestApp({ credentialVerifiers: [credentials.verifier] })
afterAll(() => t.close())

const url = (m: TestMember, rest: string) => `/api/v1/orgs/${m.orgId}${rest}`

/** A credential of `m`'s organisation acting for `m`, as an assistant would hold it. */
function assistantHeaders(m: TestMember) {
  const { authorization, credentialId } = credentials.issue({ orgId: m.orgId, userId: m.userId })
  return { headers: { authorization }, credentialId }
}

async function turnOn(owner: TestMember, enabled = true) {
  const res = await t.app.inject({
    method: 'PUT',
    url: url(owner, '/external-assistants'),
    headers: owner.headers,
    payload: { enabled },
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { enabled: boolean; updatedAt: string | null; updatedBy: string | null }
}

async function auditRows(orgId: string) {
  const result = await t.database.db.execute(
    sql`select action, actor_type, actor_id, credential_id, target_type, target_id, meta
        from audit_logs where org_id = ${orgId} order by created_at, id`,
  )
  return (result as unknown as { rows: Record<string, unknown>[] }).rows
}

/** A conversation of `m`'s organisation started at `startedAt` with the given messages. */
async function conversationWith(m: TestMember, startedAt: Date, contents: string[]) {
  return withTenant(t.database.db, { orgId: m.orgId }, async (tx) => {
    const [row] = await tx
      .insert(conversations)
      .values({ orgId: m.orgId, createdBy: m.userId, startedAt })
      .returning({ id: conversations.id })
    const id = row?.id ?? ''
    for (const [i, content] of contents.entries()) {
      await tx.insert(messages).values({
        orgId: m.orgId,
        conversationId: id,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content,
        createdAt: new Date(startedAt.getTime() + i * 1000),
      })
    }
    return id
  })
}

describe("the owner's switch", () => {
  it('is off for a new organisation, and the assistant procedures answer 403 until it is on', async () => {
    const owner = await signedInMember(t, 'Switch Firm')
    const state = await t.app.inject({
      url: url(owner, '/external-assistants'),
      headers: owner.headers,
    })
    expect(state.json()).toEqual({
      enabled: false,
      updatedAt: null,
      updatedBy: null,
      canChange: true,
    })

    const { headers } = assistantHeaders(owner)
    for (const [path, payload] of [
      ['/rpc/list_recent_conversations', { lim: 5 }],
      ['/rpc/log_gpt_action', { action: 'drafted_reply' }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: url(owner, path), headers, payload })
      expect(res.statusCode, path).toBe(403)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json()).toMatchObject({ code: 'external_assistants_disabled' })
    }
    expect(await auditRows(owner.orgId)).not.toContainEqual(
      expect.objectContaining({ actor_type: 'gpt' }),
    )
  })

  it('is turned on and off by an owner, each change audited with who and what', async () => {
    const owner = await signedInMember(t, 'Audited Switch Firm')
    const on = await turnOn(owner)
    expect(on).toMatchObject({ enabled: true, updatedBy: owner.userId })
    expect(Date.parse(on.updatedAt ?? '')).not.toBeNaN()
    const off = await turnOn(owner, false)
    expect(off.enabled).toBe(false)
    const read = await t.app.inject({
      url: url(owner, '/external-assistants'),
      headers: owner.headers,
    })
    expect(read.json()).toMatchObject({ enabled: false, updatedBy: owner.userId })
    const switches = (await auditRows(owner.orgId)).filter(
      (row) => row.action === 'organization.external_assistants',
    )
    expect(switches).toEqual([
      expect.objectContaining({
        actor_type: 'user',
        actor_id: owner.userId,
        target_type: 'organization',
        target_id: owner.orgId,
        meta: { enabled: true },
      }),
      expect.objectContaining({ meta: { enabled: false } }),
    ])
  })

  it('refuses an admin (owner only) and leaves the switch off', async () => {
    const owner = await signedInMember(t, 'Admin Switch Firm')
    const admin = await signedInWithRole(t, owner.orgId, 'admin')
    const res = await t.app.inject({
      method: 'PUT',
      url: url(owner, '/external-assistants'),
      headers: admin.headers,
      payload: { enabled: true },
    })
    expect(res.statusCode).toBe(403)
    const seen = await t.app.inject({
      url: url(owner, '/external-assistants'),
      headers: admin.headers,
    })
    expect(seen.json()).toMatchObject({ enabled: false, canChange: false })
    const read = await t.app.inject({
      url: url(owner, '/external-assistants'),
      headers: owner.headers,
    })
    expect(read.json()).toMatchObject({ enabled: false })
  })

  it("keeps one organisation's switch out of another's sight and reach (RLS)", async () => {
    const [alice, mallory] = [
      await signedInMember(t, 'Alice Firm'),
      await signedInMember(t, 'Mallory Firm'),
    ]
    await turnOn(alice)
    const seen = await withTenant(t.database.db, { orgId: mallory.orgId }, (tx) =>
      tx.select().from(orgSettings),
    )
    expect(seen).toEqual([])
    await expect(
      withTenant(t.database.db, { orgId: mallory.orgId }, (tx) =>
        tx.insert(orgSettings).values({ orgId: alice.orgId, externalAssistantsEnabled: false }),
      ),
    ).rejects.toThrow()
    const updated = await withTenant(t.database.db, { orgId: mallory.orgId }, (tx) =>
      tx.update(orgSettings).set({ externalAssistantsEnabled: false }).returning(),
    )
    expect(updated).toEqual([])
    const read = await t.app.inject({
      url: url(alice, '/external-assistants'),
      headers: alice.headers,
    })
    expect(read.json()).toMatchObject({ enabled: true })
  })
})

describe('list_recent_conversations', () => {
  it('lists the latest conversations newest first, with their first question, up to lim', async () => {
    const owner = await signedInMember(t, 'Conversations Firm')
    await turnOn(owner)
    const older = await conversationWith(owner, new Date('2026-01-01T10:00:00Z'), [
      'Who signed the lease?',
      'The tenant did [1].',
    ])
    const newer = await conversationWith(owner, new Date('2026-02-01T10:00:00Z'), [
      `When does the NDA expire? ${'x'.repeat(300)}`,
    ])
    await conversationWith(owner, new Date('2025-12-01T10:00:00Z'), ['Oldest question'])
    const other = await signedInMember(t, 'Other Conversations Firm')
    await conversationWith(other, new Date('2026-03-01T10:00:00Z'), ['Secret question'])

    const { headers } = assistantHeaders(owner)
    const res = await t.app.inject({
      method: 'POST',
      url: url(owner, '/rpc/list_recent_conversations'),
      headers,
      payload: { org_id: owner.orgId, lim: 2 },
    })
    expect(res.statusCode, res.body).toBe(200)
    const rows = res.json() as { id: string; firstQuestion: string; messageCount: number }[]
    expect(rows.map((r) => r.id)).toEqual([newer, older])
    expect(rows[0]?.firstQuestion).toHaveLength(200)
    expect(rows[0]?.firstQuestion.startsWith('When does the NDA expire?')).toBe(true)
    expect(rows[1]).toMatchObject({ firstQuestion: 'Who signed the lease?', messageCount: 2 })
    expect(res.body).not.toContain('Secret question')
  })

  it("answers 404 when org_id names another organisation than the path's", async () => {
    const owner = await signedInMember(t, 'Mismatch Firm')
    await turnOn(owner)
    const res = await t.app.inject({
      method: 'POST',
      url: url(owner, '/rpc/list_recent_conversations'),
      headers: assistantHeaders(owner).headers,
      payload: { org_id: 'another-org', lim: 3 },
    })
    expect(res.statusCode).toBe(404)
  })
})

describe('log_gpt_action', () => {
  it('records an audit entry of actor type gpt with the credential and user', async () => {
    const owner = await signedInMember(t, 'Gpt Action Firm')
    await turnOn(owner)
    const { headers, credentialId } = assistantHeaders(owner)
    const res = await t.app.inject({
      method: 'POST',
      url: url(owner, '/rpc/log_gpt_action'),
      headers,
      payload: { action: 'drafted_reply', target_type: 'entity', target_id: 'client-7' },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toEqual({ action: 'gpt.drafted_reply', actorType: 'gpt' })
    const rows = await auditRows(owner.orgId)
    expect(rows.at(-1)).toMatchObject({
      action: 'gpt.drafted_reply',
      actor_type: 'gpt',
      actor_id: owner.userId,
      credential_id: credentialId,
      target_type: 'entity',
      target_id: 'client-7',
    })
  })

  it('refuses free text as the action name, recording nothing', async () => {
    const owner = await signedInMember(t, 'Gpt Bad Action Firm')
    await turnOn(owner)
    const before = (await auditRows(owner.orgId)).length
    const res = await t.app.inject({
      method: 'POST',
      url: url(owner, '/rpc/log_gpt_action'),
      headers: assistantHeaders(owner).headers,
      payload: { action: 'The client said the merger closes on Friday' },
    })
    expect(res.statusCode).toBe(400)
    expect(await auditRows(owner.orgId)).toHaveLength(before)
  })
})

import { readdir } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import { uploadForm } from '../../test/sample-files'

const t = await buildTestApp()
afterAll(() => t.close())

const base = (m: TestMember, orgId = m.orgId) => `/api/v1/orgs/${orgId}/documents`

async function paste(m: TestMember, title: string, orgId = m.orgId): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `${base(m, orgId)}/text`,
    headers: m.headers,
    payload: { title, content: `The text of ${title}.` },
  })
  expect(res.statusCode).toBe(201)
  return (res.json() as { id: string }).id
}

function rename(m: TestMember, orgId: string, id: string, payload: unknown) {
  return t.app.inject({
    method: 'PATCH',
    url: `${base(m, orgId)}/${id}`,
    headers: m.headers,
    payload: payload as object,
  })
}

function bulkDelete(m: TestMember, orgId: string, ids: string[]) {
  return t.app.inject({
    method: 'POST',
    url: `${base(m, orgId)}/bulk-delete`,
    headers: m.headers,
    payload: { ids },
  })
}

async function titleOf(m: TestMember, id: string): Promise<string | number> {
  const res = await t.app.inject({ url: `${base(m)}/${id}`, headers: m.headers })
  return res.statusCode === 200 ? (res.json() as { title: string }).title : res.statusCode
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows
}

describe('renaming a document (PATCH)', () => {
  it('cleans the new title to one line, saves it, and records an audit entry and an event', async () => {
    const owner = await signedInMember(t, 'Rename Firm')
    const id = await paste(owner, 'scan_0001')
    const res = await rename(owner, owner.orgId, id, {
      title: '  Supply\u202E Agreement\r\n(signed)  ',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id, title: 'Supply Agreement (signed)' })
    expect(await titleOf(owner, id)).toBe('Supply Agreement (signed)')
    const audit = await rows<{ action: string; target_id: string; meta: unknown }>(
      sql`select action, target_id, meta from audit_logs where org_id = ${owner.orgId}
          and action = 'document.rename'`,
    )
    expect(audit).toEqual([
      {
        action: 'document.rename',
        target_id: id,
        meta: { from: 'scan_0001', to: 'Supply Agreement (signed)' },
      },
    ])
    const events = await rows<{ kind: string; meta: unknown }>(
      sql`select kind, meta from events where org_id = ${owner.orgId} and kind = 'document.renamed'`,
    )
    expect(events).toEqual([
      { kind: 'document.renamed', meta: { documentId: id, title: 'Supply Agreement (signed)' } },
    ])
  })

  it('refuses an empty or over-long title with a 400 problem and keeps the old one', async () => {
    const owner = await signedInMember(t, 'Blank Firm')
    const id = await paste(owner, 'Lease')
    for (const title of [' \u0000\n ', 'x'.repeat(301)]) {
      const res = await rename(owner, owner.orgId, id, { title })
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    }
    expect(await titleOf(owner, id)).toBe('Lease')
  })

  it("lets a member rename their own document but not the owner's (403), and an admin any", async () => {
    const owner = await signedInMember(t, 'Roles Firm')
    const member = await signedInWithRole(t, owner.orgId, 'member')
    const admin = await signedInWithRole(t, owner.orgId, 'admin')
    const ownersDoc = await paste(owner, 'Partner memo')
    const refused = await rename(member, owner.orgId, ownersDoc, { title: 'Mine now' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'not_document_creator' })
    expect(await titleOf(owner, ownersDoc)).toBe('Partner memo')

    const membersDoc = await paste(member, 'Draft', owner.orgId)
    expect((await rename(member, owner.orgId, membersDoc, { title: 'Draft v2' })).statusCode).toBe(
      200,
    )
    expect((await rename(admin, owner.orgId, membersDoc, { title: 'Draft v3' })).statusCode).toBe(
      200,
    )
    expect(await titleOf(owner, membersDoc)).toBe('Draft v3')
  })

  it("hides another organisation's document behind a 404", async () => {
    const [alice, mallory] = [await signedInMember(t, 'Alice Firm'), await signedInMember(t)]
    const id = await paste(alice, 'Secret NDA')
    const res = await rename(mallory, mallory.orgId, id, { title: 'Pwned' })
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('Secret')
    expect(await titleOf(alice, id)).toBe('Secret NDA')
  })
})

describe('bulk delete', () => {
  async function blobFiles(): Promise<string[]> {
    return (await readdir(t.blobDir, { recursive: true })).filter((p) => p.endsWith('original'))
  }

  it('deletes the selected documents, their files, and audits each one', async () => {
    const owner = await signedInMember(t, 'Bulk Firm')
    const upload = await t.app.inject({
      method: 'POST',
      url: base(owner),
      headers: owner.headers,
      payload: uploadForm(new TextEncoder().encode('A letter.'), 'letter.txt'),
    })
    const uploaded = (upload.json() as { id: string }).id
    const pasted = await paste(owner, 'Old memo')
    const kept = await paste(owner, 'Keep me')
    const filesBefore = (await blobFiles()).filter((p) => p.includes(uploaded))
    expect(filesBefore).toHaveLength(1)

    const res = await bulkDelete(owner, owner.orgId, [uploaded, pasted])
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ deleted: 2 })
    expect(await titleOf(owner, uploaded)).toBe(404)
    expect(await titleOf(owner, pasted)).toBe(404)
    expect(await titleOf(owner, kept)).toBe('Keep me')
    expect((await blobFiles()).filter((p) => p.includes(uploaded))).toEqual([])
    const audit = await rows<{ target_id: string }>(
      sql`select target_id from audit_logs where org_id = ${owner.orgId}
          and action = 'document.delete' order by target_id`,
    )
    expect(audit.map((a) => a.target_id).sort()).toEqual([uploaded, pasted].sort())
  })

  it("deletes nothing when a member's selection holds someone else's document (403)", async () => {
    const owner = await signedInMember(t, 'All Or Nothing Firm')
    const member = await signedInWithRole(t, owner.orgId, 'member')
    const own = await paste(member, 'My draft', owner.orgId)
    const ownersDoc = await paste(owner, 'Partner memo')
    const res = await bulkDelete(member, owner.orgId, [own, ownersDoc])
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'not_document_creator' })
    expect(await titleOf(owner, own)).toBe('My draft')
    expect(await titleOf(owner, ownersDoc)).toBe('Partner memo')
    const audit = await rows<{ id: string }>(
      sql`select id from audit_logs where org_id = ${owner.orgId} and action = 'document.delete'`,
    )
    expect(audit).toEqual([])
  })

  it("skips ids of no document and another organisation's, deleting none of the latter", async () => {
    const [alice, mallory] = [await signedInMember(t, 'Alice Bulk'), await signedInMember(t)]
    const alices = await paste(alice, 'Alice contract')
    const mallorys = await paste(mallory, 'Mallory memo')
    const res = await bulkDelete(mallory, mallory.orgId, [alices, mallorys, crypto.randomUUID()])
    expect(res.json()).toEqual({ deleted: 1 })
    expect(await titleOf(alice, alices)).toBe('Alice contract')
    expect(await titleOf(mallory, mallorys)).toBe(404)
  })

  it('refuses an empty selection and non-UUID ids with a 400 problem', async () => {
    const owner = await signedInMember(t, 'Empty Firm')
    for (const ids of [[], ['not-a-uuid']]) {
      const res = await bulkDelete(owner, owner.orgId, ids)
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    }
  })
})

/**
 * Playbooks through the API (issue 46, decision 0153): a starter copied, a draft edited and
 * approved (then frozen, by the service and by the database's trigger), import and export through
 * the published JSON Schema, a document checked with every citation a passage of its text,
 * roles (approval and deletion are admins'), audit, tenant isolation (RLS) and app isolation of
 * checks.
 */
import { describe, expect, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import {
  aliceAndMallory,
  signedInMember,
  signedInWithRole,
  testAppForFile,
  type TestMember,
} from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { appOf } from '../../test/app-of'
import { mintToken } from '../../test/mint-token'
import { pasteDocument } from '../../test/pasted-document'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { withTenant } from '../../db/tenant'
import { readRedline } from '../../compare/read-redline'
import { docxText } from '../../compare/redline-docx'
import { auditLogs, playbookChecks, playbooks, playbookVersions } from '../../db/schema'

const t = await testAppForFile()
const { alice, mallory } = await aliceAndMallory(t)

const playbooksUrl = (m: Pick<TestMember, 'orgId'>) => `/api/v1/orgs/${m.orgId}/playbooks`

interface Detail {
  id: string
  name: string
  currentVersion: number | null
  versions: { number: number; status: string; approvedBy: string | null }[]
}

async function copyStarter(m: TestMember, starter = 'commercial-supply'): Promise<Detail> {
  const res = await t.app.inject({
    method: 'POST',
    url: `${playbooksUrl(m)}/starters/${starter}`,
    headers: m.headers,
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as Detail
}

async function approve(m: TestMember, id: string, version: number) {
  return t.app.inject({
    method: 'POST',
    url: `${playbooksUrl(m)}/${id}/versions/${version}/approve`,
    headers: m.headers,
  })
}

/** A document of `m`'s with a finished full analysis (the local engine). */
async function analysedDocument(m: TestMember, appId?: string): Promise<string> {
  const id = await pasteDocument(t, m, 'MSA', SAMPLE_CONTRACT, appId)
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/documents/${id}/analyses`,
    headers: m.headers,
    payload: { kind: 'full' },
  })
  expect(res.statusCode, res.body).toBe(202)
  const job = await finishedJob(t, m, (res.json() as { id: string }).id)
  expect(job.status, job.error ?? '').toBe('succeeded')
  return id
}

describe('a playbook', () => {
  it('is copied from a starter, approved by an admin, then frozen', async () => {
    const member = await signedInWithRole(t, alice.orgId, 'member')
    const copied = await copyStarter(member)
    expect(copied).toMatchObject({
      currentVersion: null,
      versions: [{ number: 1, status: 'draft', approvedBy: null }],
    })
    // A member edits the draft but may not approve it.
    const version = await t.app.inject({
      url: `${playbooksUrl(member)}/${copied.id}/versions/1`,
      headers: member.headers,
    })
    const positions = (version.json() as { positions: { id: string; title: string }[] }).positions
    expect(positions.length).toBeGreaterThanOrEqual(5)
    const edited = await t.app.inject({
      method: 'PUT',
      url: `${playbooksUrl(member)}/${copied.id}/versions/1`,
      headers: member.headers,
      payload: { positions: positions.slice(0, 3) },
    })
    expect(edited.statusCode, edited.body).toBe(200)
    expect((await approve(member, copied.id, 1)).statusCode).toBe(403)

    const approved = await approve(alice, copied.id, 1)
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json()).toMatchObject({ status: 'approved', approvedBy: alice.userId })
    const read = await t.app.inject({
      url: `${playbooksUrl(alice)}/${copied.id}`,
      headers: alice.headers,
    })
    expect(read.json()).toMatchObject({ currentVersion: 1, versions: [{ status: 'approved' }] })

    const again = await t.app.inject({
      method: 'PUT',
      url: `${playbooksUrl(alice)}/${copied.id}/versions/1`,
      headers: alice.headers,
      payload: { positions: [] },
    })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'playbook_version_approved' })
    expect((await approve(alice, copied.id, 1)).statusCode).toBe(409)
    // The database refuses too, whatever the caller.
    await expect(
      withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
        tx
          .update(playbookVersions)
          .set({ positions: [] })
          .where(eq(playbookVersions.playbookId, copied.id)),
      ),
    ).rejects.toThrow()

    const next = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(member)}/${copied.id}/versions`,
      headers: member.headers,
      payload: { positions: positions.slice(0, 2) },
    })
    expect(next.statusCode, next.body).toBe(201)
    expect(next.json()).toMatchObject({ number: 2, status: 'draft', positionCount: 2 })

    const audits = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .select({ action: auditLogs.action })
        .from(auditLogs)
        .where(and(eq(auditLogs.targetType, 'playbook'), eq(auditLogs.targetId, copied.id))),
    )
    expect(audits.map((a) => a.action).sort()).toEqual([
      'playbook.copy_starter',
      'playbook.version.approve',
      'playbook.version.create',
      'playbook.version.update',
    ])
  })

  it('is exported and imported through the published JSON Schema', async () => {
    const schema = await t.app.inject({ url: '/api/public/schemas/playbook.json' })
    expect(schema.statusCode).toBe(200)
    expect(schema.headers['content-type']).toMatch(/^application\/schema\+json/)
    expect(schema.json()).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema' })

    const copied = await copyStarter(alice, 'mutual-nda')
    const exported = await t.app.inject({
      url: `${playbooksUrl(alice)}/${copied.id}/export`,
      headers: alice.headers,
    })
    expect(exported.statusCode, exported.body).toBe(200)
    const document = exported.json() as { name: string; positions: unknown[]; status: string }
    expect(document).toMatchObject({ format: 'lexdesk-playbook/1', status: 'draft' })
    const imported = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(mallory)}/import`,
      headers: mallory.headers,
      payload: { ...document, name: 'Our NDA' },
    })
    expect(imported.statusCode, imported.body).toBe(201)
    const back = await t.app.inject({
      url: `${playbooksUrl(mallory)}/${(imported.json() as Detail).id}/export`,
      headers: mallory.headers,
    })
    expect(back.json()).toMatchObject({ name: 'Our NDA', positions: document.positions })

    const bad = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(alice)}/import`,
      headers: alice.headers,
      payload: {
        format: 'lexdesk-playbook/1',
        name: 'Bad',
        positions: [
          {
            id: 'x',
            clauseType: 'Weather',
            title: 'x',
            severity: 'low',
            preferred: { language: '' },
          },
        ],
      },
    })
    expect(bad.statusCode).toBe(400)
  })

  it('checks a document: every position judged, cited in its text, with a redline', async () => {
    const copied = await copyStarter(alice)
    expect((await approve(alice, copied.id, 1)).statusCode).toBe(200)
    const unanalysed = await pasteDocument(t, alice, 'Bare', SAMPLE_CONTRACT)
    const refused = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(alice)}/${copied.id}/checks`,
      headers: alice.headers,
      payload: { documentId: unanalysed },
    })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ code: 'playbook_check_needs_analysis' })

    const documentId = await analysedDocument(alice)
    const res = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(alice)}/${copied.id}/checks`,
      headers: alice.headers,
      payload: { documentId },
    })
    expect(res.statusCode, res.body).toBe(200)
    const check = res.json() as {
      id: string
      version: number
      counts: Record<string, number>
      results: {
        positionId: string
        verdict: string
        citation: { start: number; end: number; text: string } | null
        redline: { language: string } | null
      }[]
    }
    expect(check.version).toBe(1)
    expect(check.results.length).toBeGreaterThanOrEqual(5)
    for (const r of check.results) {
      if (r.citation)
        expect(SAMPLE_CONTRACT.slice(r.citation.start, r.citation.end)).toBe(r.citation.text)
      if (r.verdict !== 'compliant') expect(r.redline?.language).toBeTruthy()
    }
    expect(check.results.find((r) => r.positionId === 'exclusivity')?.verdict).toBe('deviation')
    expect(check.results.find((r) => r.positionId === 'governing-law')).toMatchObject({
      verdict: 'fallback',
    })

    const list = await t.app.inject({
      url: `${playbooksUrl(alice)}/${copied.id}/checks?documentId=${documentId}`,
      headers: alice.headers,
    })
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: check.id }] })
    const one = await t.app.inject({
      url: `${playbooksUrl(alice)}/${copied.id}/checks/${check.id}`,
      headers: alice.headers,
    })
    expect(one.json()).toMatchObject({ id: check.id, counts: check.counts })

    // The suggested redlines as tracked changes: reject all is the document, accept all its
    // cited passages replaced by the preferred language.
    const docx = await t.app.inject({
      url: `${playbooksUrl(alice)}/${copied.id}/checks/${check.id}/redline.docx`,
      headers: alice.headers,
    })
    expect(docx.statusCode, docx.body).toBe(200)
    expect(docx.headers['content-disposition']).toMatch(/attachment/)
    const { accepted, rejected } = readRedline(new Uint8Array(docx.rawPayload))
    expect(rejected).toBe(docxText(SAMPLE_CONTRACT))
    const exclusivity = check.results.find((r) => r.positionId === 'exclusivity')!
    expect(accepted).toContain(exclusivity.redline!.language)
    expect(accepted).not.toContain(exclusivity.citation!.text)
  })

  it('is deleted by an admin only, with its versions and checks', async () => {
    const member = await signedInWithRole(t, alice.orgId, 'member')
    const copied = await copyStarter(member)
    const asMember = await t.app.inject({
      method: 'DELETE',
      url: `${playbooksUrl(member)}/${copied.id}`,
      headers: member.headers,
    })
    expect(asMember.statusCode).toBe(403)
    const asAdmin = await t.app.inject({
      method: 'DELETE',
      url: `${playbooksUrl(alice)}/${copied.id}`,
      headers: alice.headers,
    })
    expect(asAdmin.statusCode).toBe(204)
    const left = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx.select().from(playbookVersions).where(eq(playbookVersions.playbookId, copied.id)),
    )
    expect(left).toEqual([])
  })
})

describe('tenant isolation', () => {
  it("never shows or checks another organisation's playbook, version, check or document", async () => {
    const copied = await copyStarter(alice)
    expect((await approve(alice, copied.id, 1)).statusCode).toBe(200)
    const documentId = await analysedDocument(alice)
    const check = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(alice)}/${copied.id}/checks`,
      headers: alice.headers,
      payload: { documentId },
    })
    const checkId = (check.json() as { id: string }).id

    const list = await t.app.inject({ url: playbooksUrl(mallory), headers: mallory.headers })
    expect((list.json() as { items: { id: string }[] }).items.map((p) => p.id)).not.toContain(
      copied.id,
    )
    for (const url of [
      `${playbooksUrl(mallory)}/${copied.id}`,
      `${playbooksUrl(mallory)}/${copied.id}/versions/1`,
      `${playbooksUrl(mallory)}/${copied.id}/export`,
      `${playbooksUrl(mallory)}/${copied.id}/checks/${checkId}`,
    ]) {
      const res = await t.app.inject({ url, headers: mallory.headers })
      expect(res.statusCode, url).toBe(404)
    }
    // Mallory's own playbook cannot check Alice's document.
    const own = await copyStarter(mallory)
    expect((await approve(mallory, own.id, 1)).statusCode).toBe(200)
    const crossing = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(mallory)}/${own.id}/checks`,
      headers: mallory.headers,
      payload: { documentId },
    })
    expect(crossing.statusCode).toBe(404)
    expect(crossing.json()).toMatchObject({ code: 'document_not_found' })

    // Under Mallory's organisation, RLS hides Alice's rows in all three tables.
    const seen = await withTenant(t.database.db, { orgId: mallory.orgId }, async (tx) => ({
      playbooks: await tx.select().from(playbooks).where(eq(playbooks.id, copied.id)),
      versions: await tx
        .select()
        .from(playbookVersions)
        .where(eq(playbookVersions.playbookId, copied.id)),
      checks: await tx.select().from(playbookChecks).where(eq(playbookChecks.id, checkId)),
    }))
    expect(seen).toEqual({ playbooks: [], versions: [], checks: [] })
    // Nor may it write a row into Alice's organisation.
    await expect(
      withTenant(t.database.db, { orgId: mallory.orgId }, (tx) =>
        tx.insert(playbooks).values({ orgId: alice.orgId, name: 'Planted' }),
      ),
    ).rejects.toThrow()
    const [{ n } = { n: 0 }] = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx
        .select({ n: sql<number>`count(*)::int` })
        .from(playbooks)
        .where(eq(playbooks.name, 'Planted')),
    )
    expect(n).toBe(0)
  })
})

describe('an app-bound credential', () => {
  it("reads playbooks, checks its app's documents only, never writes a playbook", async () => {
    const owner = await signedInMember(t, 'App playbook firm')
    const [appA, appB] = [await appOf(t, owner, 'pb-a'), await appOf(t, owner, 'pb-b')]
    const copied = await copyStarter(owner)
    expect((await approve(owner, copied.id, 1)).statusCode).toBe(200)
    const inA = await analysedDocument(owner, appA)
    const inB = await analysedDocument(owner, appB)
    const ofB = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(owner)}/${copied.id}/checks`,
      headers: owner.headers,
      payload: { documentId: inB },
    })
    expect(ofB.json()).toMatchObject({ appId: appB })
    const { token } = await mintToken(t, owner, {
      app_id: appA,
      scope: 'read write',
      ttl_seconds: 600,
    })
    const headers = { authorization: `Bearer ${token}`, origin: owner.headers.origin }

    const read = await t.app.inject({ url: `${playbooksUrl(owner)}/${copied.id}`, headers })
    expect(read.statusCode, read.body).toBe(200)
    const write = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(owner)}/starters/mutual-nda`,
      headers,
    })
    expect(write.statusCode).toBe(403)
    expect(write.json()).toMatchObject({ code: 'outside_app_scope' })

    const mine = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(owner)}/${copied.id}/checks`,
      headers,
      payload: { documentId: inA },
    })
    expect(mine.statusCode, mine.body).toBe(200)
    expect(mine.json()).toMatchObject({ appId: appA })
    const theirs = await t.app.inject({
      method: 'POST',
      url: `${playbooksUrl(owner)}/${copied.id}/checks`,
      headers,
      payload: { documentId: inB },
    })
    expect(theirs.statusCode).toBe(404)
    const list = await t.app.inject({ url: `${playbooksUrl(owner)}/${copied.id}/checks`, headers })
    expect((list.json() as { items: { id: string }[] }).items.map((c) => c.id)).toEqual([
      (mine.json() as { id: string }).id,
    ])
    const other = await t.app.inject({
      url: `${playbooksUrl(owner)}/${copied.id}/checks/${(ofB.json() as { id: string }).id}`,
      headers,
    })
    expect(other.statusCode).toBe(404)
  })
})

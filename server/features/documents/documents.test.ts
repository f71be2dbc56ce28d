import { readdir } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  testAppForFile,
  aliceAndMallory,
  signedInMember,
  signedInWithRole,
  type TestMember,
} from '../../test/test-app'
import {
  makeDocx,
  makePdf,
  makeScannedPdf,
  SAMPLE_CONTRACT,
  uploadForm,
} from '../../test/sample-files'
import { appOf } from '../../test/app-of'
import { mintToken } from '../../test/mint-token'
import { pasteDocument } from '../../test/pasted-document'
import { sql } from 'drizzle-orm'
import { documents } from '../../db/schema'
import { listDocuments } from './service'
import { DocumentCard, DocumentPage } from './schemas'

const t = await testAppForFile()
const { alice, mallory } = await aliceAndMallory(t, 'Alice Firm', 'Mallory Firm')

const base = (m: TestMember) => `/api/v1/orgs/${m.orgId}/documents`

async function paste(
  m: TestMember,
  body: { title: string; content: string; documentType?: string },
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${base(m)}/text`,
    headers: m.headers,
    payload: body,
  })
  expect(res.statusCode).toBe(201)
  return res.json() as { id: string; title: string; content: string; createdAt: string }
}

async function upload(
  m: TestMember,
  bytes: Uint8Array,
  fileName: string,
  fields: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: base(m),
    headers: m.headers,
    payload: uploadForm(bytes, fileName, fields),
  })
}

/** Deletes document `id` of organisation `orgId` as `actor`. */
function deleteAs(actor: TestMember, orgId: string, id: string) {
  return t.app.inject({
    method: 'DELETE',
    url: `/api/v1/orgs/${orgId}/documents/${id}`,
    headers: actor.headers,
  })
}

/** The status of reading document `id` of `reader`'s organisation. */
async function statusOf(reader: TestMember, id: string): Promise<number> {
  return (await t.app.inject({ url: `${base(reader)}/${id}`, headers: reader.headers })).statusCode
}

/** Every stored blob file (originals and their metadata sidecars). */
async function blobFiles(): Promise<string[]> {
  return (await readdir(t.blobDir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => e.name)
}

describe('documents API', () => {
  it('uploads a PDF, extracts its text and keeps the original file', async () => {
    const res = await upload(alice, await makePdf(SAMPLE_CONTRACT), 'msa.pdf')
    expect(res.statusCode).toBe(201)
    const doc = res.json()
    expect(doc).toMatchObject({
      // The PDF's first heading (it has no metadata title): see upload-title.test.ts.
      title: 'MASTER SERVICES AGREEMENT',
      mimeType: 'application/pdf',
      documentType: 'contract',
      textStatus: 'ok',
    })
    expect(doc.content).toContain('laws of the State of New York')
    const file = await t.app.inject({
      url: `${base(alice)}/${doc.id}/file`,
      headers: alice.headers,
    })
    expect(file.statusCode).toBe(200)
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
  })

  it('uploads a DOCX and a plain-text file', async () => {
    const docx = await upload(
      alice,
      await makeDocx('Lease Agreement\nThe Tenant shall pay rent monthly.'),
      'lease.docx',
      {
        title: 'Office lease',
        documentType: 'lease',
      },
    )
    expect(docx.statusCode).toBe(201)
    expect(docx.json()).toMatchObject({ title: 'Office lease', documentType: 'lease' })
    expect(docx.json().content).toContain('The Tenant shall pay rent monthly.')
    const txt = await upload(
      alice,
      new TextEncoder().encode('Memo\r\nPlease review.'),
      'memo.txt',
      { documentType: 'memo' },
    )
    expect(txt.statusCode).toBe(201)
    expect(txt.json().content).toBe('Memo\nPlease review.')
  })

  it('keeps a PDF without a text layer and says no text was found', async () => {
    const res = await upload(alice, await makeScannedPdf(), 'scan.pdf')
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      content: '',
      textStatus: 'empty',
      textStatusMessage: 'No text found (scanned PDF?)',
    })
  })

  it.each([
    [
      'a corrupt PDF',
      new TextEncoder().encode('%PDF-1.7\nthis is not really a pdf'),
      'broken.pdf',
      400,
    ],
    [
      'a PNG named .pdf',
      new Uint8Array([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
      ]),
      'photo.pdf',
      415,
    ],
    ['binary data named .txt', new Uint8Array([1, 2, 3, 0, 255, 254, 0, 7]), 'data.txt', 415],
    ['an empty file', new Uint8Array(), 'empty.txt', 400],
  ])(
    'rejects %s with a problem and leaves no row and no file',
    async (_name, bytes, fileName, status) => {
      const before = {
        rows: (await t.database.db.select().from(documents)).length,
        files: (await blobFiles()).length,
      }
      const res = await upload(alice, bytes, fileName)
      expect(res.statusCode).toBe(status)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json().detail).toMatch(/\w/)
      expect((await t.database.db.select().from(documents)).length).toBe(before.rows)
      expect((await blobFiles()).length).toBe(before.files)
    },
  )

  it('refuses files over 25 MB with a 413 problem and stores nothing', async () => {
    const before = (await blobFiles()).length
    const res = await upload(alice, new Uint8Array(25 * 1024 * 1024 + 1).fill(65), 'huge.txt')
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ status: 413, detail: 'The file is larger than 25 MB.' })
    expect((await blobFiles()).length).toBe(before)
  })

  it('refuses two files in one upload with a 400, not a size error', async () => {
    const form = uploadForm(new TextEncoder().encode('One.'), 'one.txt')
    form.append('file', new Blob([new TextEncoder().encode('Two.')]), 'two.txt')
    const res = await t.app.inject({
      method: 'POST',
      url: base(alice),
      headers: alice.headers,
      payload: form,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().detail).toMatch(/one file/)
  })

  it('drops NUL characters from pasted text instead of failing', async () => {
    const doc = await paste(alice, { title: 'Nul memo', content: 'Before\u0000after.' })
    expect(doc.content).toBe('Beforeafter.')
  })

  it('lists newest first with 150-character previews, case-insensitive search and a type filter', async () => {
    // A firm of its own, so the list holds exactly what this test adds, whatever ran before.
    const firm = await signedInMember(t, 'Listing Firm')
    await paste(firm, {
      title: 'Office lease',
      content: 'The tenant pays rent.',
      documentType: 'lease',
    })
    await paste(firm, { title: 'Review memo', content: 'Please review.', documentType: 'memo' })
    const long = await paste(firm, {
      title: 'Zeta NDA',
      content: `Mutual NONDISCLOSURE terms. ${'x'.repeat(300)}`,
      documentType: 'nda',
    })
    const list = await t.app.inject({ url: base(firm), headers: firm.headers })
    const page = list.json()
    expect(page.items.map((d: { title: string }) => d.title)).toEqual([
      'Zeta NDA',
      'Review memo',
      'Office lease',
    ])
    expect(page.items[0].preview).toBe(long.content.slice(0, 150))
    // The list's time is the document's, in the API's form (UTC, milliseconds).
    expect(page.items[0].createdAt).toBe(long.createdAt)
    expect(page.items[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect([...page.types].sort()).toEqual(['lease', 'memo', 'nda'])
    const byContent = await t.app.inject({
      url: `${base(firm)}?q=nondisclosure`,
      headers: firm.headers,
    })
    expect(byContent.json().items.map((d: { id: string }) => d.id)).toEqual([long.id])
    const byTitle = await t.app.inject({
      url: `${base(firm)}?q=zeta%20nda`,
      headers: firm.headers,
    })
    expect(byTitle.json().total).toBe(1)
    const byType = await t.app.inject({ url: `${base(firm)}?type=lease`, headers: firm.headers })
    expect(byType.json().items.map((d: { title: string }) => d.title)).toEqual(['Office lease'])
    const wildcard = await t.app.inject({ url: `${base(firm)}?q=%25`, headers: firm.headers })
    expect(wildcard.json().total).toBe(0)
  })

  it('pages by limit and offset with the total and all types, also past the last page', async () => {
    const firm = await signedInMember(t, 'Paging Firm')
    for (const [title, documentType] of [
      ['One', 'memo'],
      ['Two', 'nda'],
      ['Three', 'memo'],
    ] as const) {
      await paste(firm, { title, content: `${title} ${'y'.repeat(200)}`, documentType })
    }
    const list = (query: string) =>
      t.app.inject({ url: `${base(firm)}?${query}`, headers: firm.headers }).then((r) => r.json())
    const second = await list('limit=2&offset=2')
    expect(second).toMatchObject({ total: 3, types: ['memo', 'nda'] })
    expect(second.items.map((d: { title: string }) => d.title)).toEqual(['One'])
    expect(second.items[0].preview).toBe(`One ${'y'.repeat(146)}`)
    expect(await list('limit=2&offset=5')).toEqual({ items: [], total: 3, types: ['memo', 'nda'] })
    expect(await list('type=nda&offset=1')).toEqual({ items: [], total: 1, types: ['memo', 'nda'] })
    const none = await signedInMember(t, 'Empty Firm')
    const empty = await t.app.inject({ url: base(none), headers: none.headers })
    expect(empty.json()).toEqual({ items: [], total: 0, types: [] })
  })

  it('lists the documents named by `ids`, those it reaches only, and refuses a bad or long list', async () => {
    const firm = await signedInMember(t, 'Ids Firm')
    const [one, two, three] = [
      await paste(firm, { title: 'One', content: 'First.' }),
      await paste(firm, { title: 'Two', content: 'Second.' }),
      await paste(firm, { title: 'Three', content: 'Third.' }),
    ]
    const foreign = await paste(mallory, { title: 'Mallory secret', content: 'Hers.' })
    const list = (query: string, m: TestMember = firm) =>
      t.app.inject({ url: `${base(m)}?${query}`, headers: m.headers })
    const named = await list(`ids=${one.id},${three.id.toUpperCase()},${one.id}`)
    expect(named.statusCode, named.body).toBe(200)
    expect(named.json()).toMatchObject({ total: 2 })
    expect(named.json().items.map((d: { title: string }) => d.title)).toEqual(['Three', 'One'])
    // Another organisation's id matches nothing, named by itself or beside the firm's own.
    const across = await list(`ids=${foreign.id},${two.id}`)
    expect(across.json().items.map((d: { id: string }) => d.id)).toEqual([two.id])
    expect(across.body).not.toContain('Mallory secret')
    expect((await list(`ids=${two.id}`, mallory)).json()).toMatchObject({ items: [], total: 0 })
    const refused = async (query: string, detail: string) => {
      const res = await list(query)
      expect(res.statusCode, query).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json().detail).toContain(detail)
    }
    await refused(`ids=${one.id},not-a-uuid`, 'comma-separated document ids')
    await refused('ids=', 'comma-separated document ids')
    const many = Array.from(
      { length: 101 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    )
    await refused(`ids=${many.join(',')}`, 'at most 100 documents')
    expect((await list(`ids=${many.slice(1).join(',')}&limit=100`)).statusCode).toBe(200)
  })

  it("lists by `ids` for an app-bound credential its app's documents only (decision 0136)", async () => {
    const owner = await signedInMember(t, 'Ids Apps Firm')
    const [appA, appB] = [await appOf(t, owner, 'ids-a'), await appOf(t, owner, 'ids-b')]
    const ofA = await pasteDocument(t, owner, 'Of A', 'Text of A.', appA)
    const ofB = await pasteDocument(t, owner, 'Of B', 'Text of B.', appB)
    const firmWide = await pasteDocument(t, owner, 'Firm-wide', 'Text of the firm.')
    const { token } = await mintToken(t, owner, { app_id: appA, scope: 'read' })
    const headers = { authorization: `Bearer ${token}`, origin: owner.headers.origin }
    const res = await t.app.inject({ url: `${base(owner)}?ids=${ofA},${ofB},${firmWide}`, headers })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ total: 1, items: [{ id: ofA, title: 'Of A' }] })
    expect(res.body).not.toContain('Of B')
    const other = await t.app.inject({ url: `${base(owner)}?ids=${ofB}&appId=${appB}`, headers })
    expect(other.statusCode).toBe(404)
    expect(other.json()).toMatchObject({ code: 'app_not_found' })
  })

  it('answers the declared DocumentPage exactly, as JSON, whatever the titles hold', async () => {
    // The body is PostgreSQL's JSON text, never checked at run time (decision 0093): here.
    const firm = await signedInMember(t, 'Declared Page Firm')
    const tricky = `Memo "createdAt":"2020-01-01T00:00:00" \\ ✓`
    const doc = await paste(firm, { title: tricky, content: 'Text.', documentType: 'memo' })
    await paste(firm, { title: 'Plain', content: 'More text.' })
    const res = await t.app.inject({ url: base(firm), headers: firm.headers })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    const body = res.json()
    expect(DocumentPage.strict().parse(body)).toEqual(body)
    for (const item of body.items) {
      expect(Object.keys(item).sort()).toEqual(Object.keys(DocumentCard.shape).sort())
    }
    expect(body.items[1]).toMatchObject({ id: doc.id, title: tricky, createdAt: doc.createdAt })
    // The assistant's tool reads the same page as an object.
    const principal = {
      orgId: firm.orgId,
      userId: firm.userId,
      role: 'owner',
      actorType: 'user',
    } as const
    const page = await listDocuments(t.database.db, principal, { limit: 50, offset: 0 })
    expect(page).toEqual(body)
  })

  it('refuses an empty paste with the spec message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${base(alice)}/text`,
      headers: alice.headers,
      payload: { title: 'x', content: '   ' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().detail).toContain('Please paste a document to analyze')
  })
})

describe('documents authorisation', () => {
  it("hides another org's document behind a 404 problem that does not leak its title", async () => {
    const secret = await paste(alice, {
      title: 'Project Falcon merger memo',
      content: 'Privileged and confidential.',
    })
    // Mallory asks through her own org, and through Alice's org id.
    for (const url of [
      `${base(mallory)}/${secret.id}`,
      `${base(alice)}/${secret.id}`,
      `${base(alice)}/${secret.id}/analyses`,
    ]) {
      const res = await t.app.inject({ url, headers: mallory.headers })
      expect(res.statusCode).toBe(404)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.body).not.toContain('Falcon')
    }
    const list = await t.app.inject({ url: base(mallory), headers: mallory.headers })
    expect(list.body).not.toContain('Falcon')
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${base(mallory)}/${secret.id}`,
      headers: mallory.headers,
    })
    expect(del.statusCode).toBe(404)
  })

  it('answers 401 without a session, 400 for a malformed id and 404 for a missing one', async () => {
    expect((await t.app.inject({ url: base(alice) })).statusCode).toBe(401)
    const malformed = await t.app.inject({
      url: `${base(alice)}/not-a-uuid`,
      headers: alice.headers,
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().detail).toMatch(/UUID/)
    const missing = await t.app.inject({
      url: `${base(alice)}/${crypto.randomUUID()}`,
      headers: alice.headers,
    })
    expect(missing.statusCode).toBe(404)
  })

  it('deletes a document together with its original file', async () => {
    const res = await upload(alice, new TextEncoder().encode('Short letter.'), 'letter.txt')
    const before = (await blobFiles()).length
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${base(alice)}/${res.json().id}`,
      headers: alice.headers,
    })
    expect(del.statusCode).toBe(204)
    expect((await blobFiles()).length).toBe(before - 2)
  })

  it('stops the jobs about a deleted document: queued ones cancelled, running ones told to stop', async () => {
    const m = await signedInMember(t, 'Stopping Firm')
    const gone = await paste(m, { title: 'Gone', content: 'A very long text.' })
    const kept = await paste(m, { title: 'Kept', content: 'Another text.' })
    // Jobs no runner here will claim: one waiting for later, one running elsewhere, one elsewhere.
    const job = async (subjectId: string, status: 'queued' | 'running') => {
      const result = await t.database.db.execute(sql`
        INSERT INTO jobs (org_id, kind, status, subject_id, run_after, heartbeat_at, locked_by)
        VALUES (${m.orgId}, 'analysis', ${status}, ${subjectId}, now() + interval '1 hour',
          now(), 'another-process')
        RETURNING id`)
      return (result as unknown as { rows: { id: string }[] }).rows[0]!.id
    }
    const waiting = await job(gone.id, 'queued')
    const running = await job(gone.id, 'running')
    const other = await job(kept.id, 'queued')
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${base(m)}/${gone.id}`,
      headers: m.headers,
    })
    expect(del.statusCode).toBe(204)
    const states = await t.database.db.execute(sql`
      SELECT id, status, cancel_requested FROM jobs WHERE id IN (${waiting}, ${running}, ${other})`)
    const byId = new Map(
      (
        states as unknown as { rows: { id: string; status: string; cancel_requested: boolean }[] }
      ).rows.map((r) => [r.id, r]),
    )
    expect(byId.get(waiting)).toMatchObject({ status: 'cancelled', cancel_requested: true })
    expect(byId.get(running)).toMatchObject({ status: 'running', cancel_requested: true })
    expect(byId.get(other)).toMatchObject({ status: 'queued', cancel_requested: false })
  })

  it("lets a member delete their own document but not the owner's (403 problem)", async () => {
    const member = await signedInWithRole(t, alice.orgId, 'member')
    const ownersDoc = await paste(alice, { title: 'Partner memo', content: 'Keep this.' })
    const refused = await deleteAs(member, alice.orgId, ownersDoc.id)
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(refused.json()).toMatchObject({ code: 'not_document_creator' })
    const kept = await t.app.inject({
      url: `${base(alice)}/${ownersDoc.id}`,
      headers: member.headers,
    })
    expect(kept.json()).toMatchObject({ title: 'Partner memo', content: 'Keep this.' })

    const ownDoc = await paste(member, { title: 'My draft', content: 'Draft text.' })
    expect((await deleteAs(member, alice.orgId, ownDoc.id)).statusCode).toBe(204)
    expect(await statusOf(alice, ownDoc.id)).toBe(404)
  })

  it("lets an admin delete a member's document", async () => {
    const [admin, member] = [
      await signedInWithRole(t, alice.orgId, 'admin'),
      await signedInWithRole(t, alice.orgId, 'member'),
    ]
    const membersDoc = await paste(member, { title: 'Stale draft', content: 'Old.' })
    expect((await deleteAs(admin, alice.orgId, membersDoc.id)).statusCode).toBe(204)
    expect(await statusOf(alice, membersDoc.id)).toBe(404)
  })
})

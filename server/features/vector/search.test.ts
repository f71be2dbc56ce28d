import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { addIndexedDocument } from '../../test/indexed-document'
import { withTenant } from '../../db/tenant'
import { embedLocal } from '../../ai/embedder/local/local-embedding'
import { wordTable } from '../../ai/embedder/local/word-table'

let t: TestApp
let alice: TestMember
let mallory: TestMember
let aliceDoc: string
let malloryDoc: string

const NDA = [
  'Mutual Non-Disclosure Agreement between Northwind Traders and Contoso Ltd.',
  'The Receiving Party shall keep all Confidential Information secret and shall not disclose it to any third party without prior written consent.',
  'Upon termination of this Agreement, the Receiving Party shall promptly return or destroy all copies of the Confidential Information.',
  'This Agreement shall be governed by the laws of the State of New York.',
].join('\n\n')

const SECRET_QUERY = 'Mallory merger codename Bluebird purchase price forty million dollars'

beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Alice Firm')
  mallory = await signedInMember(t, 'Mallory Firm')
  aliceDoc = await addIndexedDocument(t, alice, 'Northwind NDA', NDA)
  malloryDoc = await addIndexedDocument(t, mallory, 'Bluebird memo', `${SECRET_QUERY}.`)
}, 60_000)
afterAll(() => t.close())

const search = (m: TestMember, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/search`,
    headers: m.headers,
    payload,
  })

describe('passages of a document', () => {
  it('indexes a new document off the request path, with offsets into its content', async () => {
    const res = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/documents/${aliceDoc}/passages`,
      headers: alice.headers,
    })
    expect(res.json()).toMatchObject({
      status: 'indexed',
      embedder: 'local:lexdesk-ppmi-2:384',
      byMeaning: true,
    })
    expect(res.json().passages).toBeGreaterThan(0)
    const hits = (await search(alice, { query: 'governing law', k: 8 })).json().items
    for (const hit of hits) expect(NDA.slice(hit.start, hit.end)).toBe(hit.content)
  })

  it('reports indexing progress as passages saved / total, rising to 100%', async () => {
    // An organisation of its own, so other tests' searches never meet these passages.
    const lessor = await signedInMember(t, 'Lease Firm')
    const content = Array.from(
      { length: 900 },
      (_, i) => `Clause ${i}: the tenant shall pay rent number ${i} on the first day of the month.`,
    ).join(' ')
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${lessor.orgId}/documents/text`,
      headers: lessor.headers,
      payload: { title: 'Long lease', content },
    })
    const id = created.json().id as string
    const progress: number[] = []
    const deadline = Date.now() + 30_000
    for (;;) {
      const state = (
        await t.app.inject({
          url: `/api/v1/orgs/${lessor.orgId}/documents/${id}/passages`,
          headers: lessor.headers,
        })
      ).json()
      progress.push(state.progress)
      if (state.status === 'indexed' || state.status === 'failed' || Date.now() > deadline) {
        expect(state).toMatchObject({ status: 'indexed', progress: 1 })
        // The handler's own count, read back: every passage of the document saved.
        expect(state).toMatchObject({ saved: state.passages, total: state.passages })
        break
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    const jobs = await t.app.inject({
      url: `/api/v1/orgs/${lessor.orgId}/jobs?subjectId=${id}&kind=document-passages`,
      headers: lessor.headers,
    })
    const [job] = jobs.json().items
    const total = (
      await t.app.inject({
        url: `/api/v1/orgs/${lessor.orgId}/documents/${id}/passages`,
        headers: lessor.headers,
      })
    ).json().passages as number
    expect(total).toBeGreaterThan(100)
    expect(job).toMatchObject({ progress: 1, message: `${total} of ${total} passages saved` })
  })

  it("hides another org's document state behind a 404", async () => {
    const res = await t.app.inject({
      url: `/api/v1/orgs/${alice.orgId}/documents/${malloryDoc}/passages`,
      headers: alice.headers,
    })
    expect(res.statusCode).toBe(404)
  })
})

describe('hybrid search', () => {
  it('finds a passage by meaning with a query sharing none of its words', async () => {
    const res = await search(alice, { query: 'erase records after expiry', k: 1 })
    expect(res.statusCode).toBe(200)
    expect(res.json().items[0]).toMatchObject({
      documentId: aliceDoc,
      documentTitle: 'Northwind NDA',
    })
    expect(res.json().items[0].content).toContain('return or destroy')
  })

  it("never returns another org's passages, even when they match the query exactly", async () => {
    const res = await search(alice, { query: SECRET_QUERY, k: 50 })
    expect(res.statusCode).toBe(200)
    const items = res.json().items as Array<{ documentId: string; content: string }>
    expect(items.length).toBeGreaterThan(0)
    expect(items.every((i) => i.documentId === aliceDoc)).toBe(true)
    expect(res.body).not.toContain('Bluebird')
  })

  it("semantic_search under org A skips org B's identical vector and still returns k rows", async () => {
    const exact = embedLocal(wordTable(), `${SECRET_QUERY}.`)
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/rpc/semantic_search`,
      headers: alice.headers,
      payload: { _org: alice.orgId, _app: null, _emb: JSON.stringify(exact), _k: 2 },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toHaveLength(2)
    for (const row of res.json()) {
      expect(row.metadata.documentId).toBe(aliceDoc)
      expect(row.score).toBeLessThan(0.99)
    }
    const own = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${mallory.orgId}/rpc/semantic_search`,
      headers: mallory.headers,
      payload: { _emb: JSON.stringify(exact), _k: 1 },
    })
    expect(own.json()[0].score).toBeGreaterThan(0.99)
  })

  it("RLS hides org B's chunks from org A even with a hand-written WHERE", async () => {
    const rows = await withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx.execute(sql`select id from doc_chunks where org_id = ${mallory.orgId}`),
    )
    expect((rows as unknown as { rows: unknown[] }).rows).toHaveLength(0)
    const write = withTenant(t.database.db, { orgId: alice.orgId }, (tx) =>
      tx.execute(
        sql`update doc_chunks set content = 'x' where org_id = ${mallory.orgId} returning id`,
      ),
    )
    expect(((await write) as unknown as { rows: unknown[] }).rows).toHaveLength(0)
  })

  it("filters to one app when asked, and the app's passages carry its id", async () => {
    // An organisation of its own, so other tests' searches never meet these passages.
    const m = await signedInMember(t, 'App Search Firm')
    const outside = await addIndexedDocument(t, m, 'Northwind NDA', NDA)
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/apps`,
      headers: m.headers,
      payload: { slug: 'litigation' },
    })
    const appId = created.json().id as string
    const inApp = await addIndexedDocument(
      t,
      m,
      'Litigation hold',
      'Preserve every email and record relevant to the pending lawsuit until the court releases the hold.',
      appId,
    )
    const scoped = (await search(m, { query: 'keep emails for the lawsuit', appId, k: 50 })).json()
    expect(scoped.items.map((i: { documentId: string }) => i.documentId)).toEqual([inApp])
    expect(scoped.items[0].appId).toBe(appId)
    const all = (await search(m, { query: 'keep emails for the lawsuit', k: 50 })).json()
    expect(all.items.map((i: { documentId: string }) => i.documentId)).toContain(outside)
  })

  it("moves a document's passages with its app instead of indexing it again", async () => {
    const m = await signedInMember(t, 'Moving Firm')
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/apps`,
      headers: m.headers,
      payload: { slug: 'moving' },
    })
    const appId = created.json().id as string
    const doc = await addIndexedDocument(
      t,
      m,
      'Escrow terms',
      'The escrow agent releases the deposit once both parties confirm completion in writing.',
      appId,
    )
    const moved = await withTenant(t.database.db, { orgId: m.orgId }, async (tx) => {
      await tx.execute(sql`update documents set app_id = null where id = ${doc}`)
      const chunks = await tx.execute(sql`select app_id from doc_chunks where document_id = ${doc}`)
      const jobs = await tx.execute(
        sql`select background from jobs where kind = 'document-passages' and subject_id = ${doc}`,
      )
      return { chunks: chunks as unknown as { rows: { app_id: string | null }[] }, jobs }
    })
    expect(moved.chunks.rows.length).toBeGreaterThan(0)
    expect(moved.chunks.rows.every((r) => r.app_id === null)).toBe(true)
    // One indexing job, queued as background work when the document was created.
    expect((moved.jobs as unknown as { rows: unknown[] }).rows).toEqual([{ background: true }])
  })

  it('clamps k to 1–50 and refuses malformed ids with a 400 problem', async () => {
    const one = await search(alice, { query: 'confidential', k: 0 })
    expect(one.json().items).toHaveLength(1)
    const bad = await search(alice, { query: 'confidential', documentId: 'nope' })
    expect(bad.statusCode).toBe(400)
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/)
  })
})

describe('semantic_search and embeddings errors', () => {
  const rpc = (payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/rpc/semantic_search`,
      headers: alice.headers,
      payload,
    })

  it("answers 'Invalid embedding JSON: …' for unparseable JSON and a wrong length", async () => {
    const bad = await rpc({ _emb: '[1, 2,' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().detail).toMatch(/^Invalid embedding JSON: /)
    const short = await rpc({ _emb: '[1, 2, 3]' })
    expect(short.statusCode).toBe(400)
    expect(short.json().detail).toBe(
      "The embedding has 3 numbers; this server's embeddings have 384.",
    )
  })

  it('hides another organisation named in _org behind a 404', async () => {
    const res = await rpc({ _org: mallory.orgId, _emb: JSON.stringify(Array(384).fill(0.1)) })
    expect(res.statusCode).toBe(404)
  })

  it("embeds text, and answers 'Provide text to embed.' for blank text", async () => {
    const url = `/api/v1/orgs/${alice.orgId}/embeddings`
    const ok = await t.app.inject({
      method: 'POST',
      url,
      headers: alice.headers,
      payload: { text: 'term' },
    })
    expect(ok.json().embedding).toHaveLength(384)
    const blank = await t.app.inject({
      method: 'POST',
      url,
      headers: alice.headers,
      payload: { text: ' ' },
    })
    expect(blank.statusCode).toBe(400)
    expect(blank.json().detail).toBe('Provide text to embed.')
  })
})

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sql } from 'drizzle-orm'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestMember } from '../../test/test-app'
import { createTestCredentials } from '../../test/test-credentials'
import { addIndexedDocument } from '../../test/indexed-document'
import { finishedJob } from '../../test/finished-job'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import type { Scope } from '../../auth/scopes'

const credentials = createTestCredentials()
const t = await buildTestApp({ credentialVerifiers: [credentials.verifier] })
await t.app.listen({ host: '127.0.0.1', port: 0 })
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
const endpoint = new URL('/mcp', base)
afterAll(() => t.close())

/** An organisation with external assistants on (or off) and an owner. */
async function firm(name: string, on = true): Promise<TestMember> {
  const owner = await signedInMember(t, name)
  if (on) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/orgs/${owner.orgId}/external-assistants`,
      headers: owner.headers,
      payload: { enabled: true },
    })
    expect(res.statusCode, res.body).toBe(200)
  }
  return owner
}

function credentialOf(m: TestMember, scopes?: Scope[]) {
  return credentials.issue({ orgId: m.orgId, userId: m.userId, ...(scopes ? { scopes } : {}) })
}

/** An MCP client of the SDK, connected to /mcp with `headers`. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'lexdesk-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }))
  return client
}

/** The text of a tool result's first content item, parsed as JSON when `isError` is unset. */
function resultOf(result: Awaited<ReturnType<Client['callTool']>>) {
  const [first] = result.content as { type: string; text: string }[]
  return { isError: result.isError === true, text: first?.text ?? '' }
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
}

/** A raw initialize POST with `headers`, to read the HTTP answer itself. */
function rawInitialize(headers: Record<string, string>) {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(initialize),
  })
}

describe('the MCP request budget', () => {
  it("spends the caller's reads per minute, then answers 429 with Retry-After", async () => {
    const limited = await buildTestApp({
      credentialVerifiers: [credentials.verifier],
      apiRateLimits: { readsPerMinute: 3, writesPerMinute: 1 },
    })
    try {
      await limited.app.listen({ host: '127.0.0.1', port: 0 })
      const port = (limited.app.server.address() as AddressInfo).port
      const owner = await signedInMember(limited, 'Mcp Budget Firm')
      await limited.app.inject({
        method: 'PUT',
        url: `/api/v1/orgs/${owner.orgId}/external-assistants`,
        headers: owner.headers,
        payload: { enabled: true },
      })
      const { authorization } = credentialOf(owner)
      const client = new Client({ name: 'lexdesk-test', version: '1.0.0' })
      // initialize and its notification: two requests; listTools the third.
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { authorization } },
        }),
      )
      await client.listTools()
      await expect(client.listTools()).rejects.toThrow()
      await client.close()
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initialize),
      })
      expect(res.status).toBe(429)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
  })
})

describe('the MCP server at /mcp', () => {
  it('lists its tools to the SDK client', async () => {
    const owner = await firm('Mcp Tools Firm')
    const client = await connect({ authorization: credentialOf(owner).authorization })
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'check_playbook',
      'compare_documents',
      'create_entity',
      'list_analyses',
      'list_documents',
      'list_entities',
      'list_recent_conversations',
      'list_reviews',
      'read_document',
      'read_review_cells',
      'search_passages',
    ])
    const search = tools.find((tool) => tool.name === 'search_passages')
    expect(search?.inputSchema.required).toEqual(['query'])
    await client.close()
  })

  it("lists the caller's reviews and reads their cells, never another organisation's", async () => {
    const owner = await firm('Mcp Review Firm')
    const outsider = await firm('Mcp Review Outsider')
    const doc = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.orgId}/documents/text`,
      headers: owner.headers,
      payload: { title: 'Mcp MSA', content: 'This Agreement is governed by the laws of England.' },
    })
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.orgId}/reviews`,
      headers: owner.headers,
      payload: {
        name: 'Mcp review',
        rows: { source: 'selection', documentIds: [doc.json().id] },
        columns: [{ preset: 'term:governingLaw' }],
      },
    })
    expect(made.statusCode, made.body).toBe(201)
    const reviewId = made.json().id as string
    const client = await connect({ authorization: credentialOf(owner).authorization })
    const listed = JSON.parse(
      resultOf(await client.callTool({ name: 'list_reviews', arguments: {} })).text,
    )
    expect(listed).toMatchObject({ total: 1, items: [{ id: reviewId, name: 'Mcp review' }] })
    const read = JSON.parse(
      resultOf(await client.callTool({ name: 'read_review_cells', arguments: { reviewId } })).text,
    )
    expect(read.review.columns).toMatchObject([{ label: 'Governing law' }])
    expect(read.cells.total).toBe(1)
    await client.close()
    const foreign = await connect({ authorization: credentialOf(outsider).authorization })
    const refused = resultOf(
      await foreign.callTool({ name: 'read_review_cells', arguments: { reviewId } }),
    )
    expect(refused.isError).toBe(true)
    expect(refused.text).not.toContain('Mcp review')
    await foreign.close()
  })

  it('compares two documents, each substantive change cited in both, never across organisations', async () => {
    const owner = await firm('Mcp Compare Firm')
    const outsider = await firm('Mcp Compare Outsider')
    const paste = async (m: TestMember, title: string, content: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${m.orgId}/documents/text`,
        headers: m.headers,
        payload: { title, content },
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json().id as string
    }
    const v1 = 'Term. The notice period is thirty (30) days.\n\nLaw. English law governs.\n'
    const v2 = 'Term. The notice period is sixty (60) days.\n\nLaw.  English law governs.\n'
    const baseDocumentId = await paste(owner, 'NDA v1', v1)
    const revisedDocumentId = await paste(owner, 'NDA v2', v2)
    const client = await connect({ authorization: credentialOf(owner).authorization })
    const result = resultOf(
      await client.callTool({
        name: 'compare_documents',
        arguments: { baseDocumentId, revisedDocumentId },
      }),
    )
    expect(result.isError, result.text).toBe(false)
    const compared = JSON.parse(result.text) as {
      comparisonId: string
      state: string
      total: number
      changes: {
        substantive: boolean
        base: { documentId: string; start: number; end: number; text: string }
        revised: { documentId: string; start: number; end: number; text: string }
      }[]
    }
    expect(compared.state).toBe('done')
    expect(compared.changes.length).toBeGreaterThan(0)
    for (const change of compared.changes) {
      expect(change.substantive).toBe(true)
      expect(change.base.documentId).toBe(baseDocumentId)
      expect(v1.slice(change.base.start, change.base.end)).toBe(change.base.text)
      expect(v2.slice(change.revised.start, change.revised.end)).toBe(change.revised.text)
    }
    expect(compared.changes.map((c) => c.revised.text).join(' ')).toContain('sixty')
    // The doubled space is a change of form: listed only when asked for.
    const all = JSON.parse(
      resultOf(
        await client.callTool({
          name: 'compare_documents',
          arguments: { comparisonId: compared.comparisonId, substantiveOnly: false },
        }),
      ).text,
    ) as { total: number }
    expect(all.total).toBeGreaterThan(compared.total)
    await client.close()
    const foreign = await connect({ authorization: credentialOf(outsider).authorization })
    for (const args of [
      { comparisonId: compared.comparisonId },
      { baseDocumentId, revisedDocumentId },
    ]) {
      const refused = resultOf(
        await foreign.callTool({ name: 'compare_documents', arguments: args }),
      )
      expect(refused.isError).toBe(true)
      expect(refused.text).not.toContain('sixty')
    }
    await foreign.close()
  })

  it('checks a document against a playbook, each finding cited, never across organisations', async () => {
    const owner = await firm('Mcp Playbook Firm')
    const outsider = await firm('Mcp Playbook Outsider')
    const url = `/api/v1/orgs/${owner.orgId}`
    const pasted = await t.app.inject({
      method: 'POST',
      url: `${url}/documents/text`,
      headers: owner.headers,
      payload: { title: 'MSA', content: SAMPLE_CONTRACT },
    })
    const documentId = (pasted.json() as { id: string }).id
    const analysis = await t.app.inject({
      method: 'POST',
      url: `${url}/documents/${documentId}/analyses`,
      headers: owner.headers,
      payload: { kind: 'full' },
    })
    const job = await finishedJob(t, owner, (analysis.json() as { id: string }).id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    const copied = await t.app.inject({
      method: 'POST',
      url: `${url}/playbooks/starters/commercial-supply`,
      headers: owner.headers,
    })
    const playbookId = (copied.json() as { id: string }).id
    const approved = await t.app.inject({
      method: 'POST',
      url: `${url}/playbooks/${playbookId}/versions/1/approve`,
      headers: owner.headers,
    })
    expect(approved.statusCode, approved.body).toBe(200)

    const client = await connect({ authorization: credentialOf(owner).authorization })
    const listed = JSON.parse(
      resultOf(await client.callTool({ name: 'check_playbook', arguments: {} })).text,
    ) as { playbooks: { id: string }[] }
    expect(listed.playbooks.map((p) => p.id)).toEqual([playbookId])
    const result = resultOf(
      await client.callTool({ name: 'check_playbook', arguments: { playbookId, documentId } }),
    )
    expect(result.isError, result.text).toBe(false)
    const checked = JSON.parse(result.text) as {
      results: {
        verdict: string
        citation: { documentId: string; start: number; end: number; text: string } | null
      }[]
    }
    expect(checked.results.length).toBeGreaterThanOrEqual(5)
    expect(checked.results.map((r) => r.verdict)).toContain('deviation')
    for (const r of checked.results) {
      if (!r.citation) continue
      expect(r.citation.documentId).toBe(documentId)
      expect(SAMPLE_CONTRACT.slice(r.citation.start, r.citation.end)).toBe(r.citation.text)
    }
    await client.close()
    const foreign = await connect({ authorization: credentialOf(outsider).authorization })
    const refused = resultOf(
      await foreign.callTool({ name: 'check_playbook', arguments: { playbookId, documentId } }),
    )
    expect(refused.isError).toBe(true)
    expect(refused.text).not.toContain('Provider')
    await foreign.close()
  })

  it("searches the caller's organisation only, each passage citing its document and span", async () => {
    const owner = await firm('Mcp Search Firm')
    const documentId = await addIndexedDocument(
      t,
      owner,
      'Supply agreement',
      'Delivery. The Supplier shall deliver the goods to the Buyer within thirty days of the order.',
    )
    const rival = await firm('Mcp Rival Firm')
    await addIndexedDocument(t, rival, 'Rival memo', 'The Supplier shall deliver rival goods.')
    const client = await connect({ authorization: credentialOf(owner).authorization })
    const result = resultOf(
      await client.callTool({ name: 'search_passages', arguments: { query: 'deliver the goods' } }),
    )
    expect(result.isError, result.text).toBe(false)
    const passages = JSON.parse(result.text) as {
      n: number
      documentId: string
      start: number
      end: number
      quote: string
    }[]
    expect(passages.length).toBeGreaterThan(0)
    expect(passages.every((p) => p.documentId === documentId)).toBe(true)
    const read = resultOf(
      await client.callTool({ name: 'read_document', arguments: { documentId } }),
    )
    const { text } = JSON.parse(read.text) as { text: string }
    for (const p of passages) expect(text.slice(p.start, p.end)).toBe(p.quote)
    expect(result.text).not.toContain('Rival')
    await client.close()
  })

  it("refuses another organisation's document as not found", async () => {
    const owner = await firm('Mcp Reader Firm')
    const other = await firm('Mcp Other Firm')
    const foreign = await addIndexedDocument(t, other, 'Other memo', 'Confidential terms.')
    const client = await connect({ authorization: credentialOf(owner).authorization })
    const read = resultOf(
      await client.callTool({ name: 'read_document', arguments: { documentId: foreign } }),
    )
    expect(read).toMatchObject({ isError: true })
    expect(read.text).toMatch(/^document_not_found/)
    expect(read.text).not.toContain('Confidential')
    await client.close()
  })

  it('creates an entity, audited as done by an MCP client with its credential', async () => {
    const owner = await firm('Mcp Writer Firm')
    const { authorization, credentialId } = credentialOf(owner)
    const client = await connect({ authorization })
    const created = resultOf(
      await client.callTool({
        name: 'create_entity',
        arguments: { name: 'Acme Holdings', type: 'client' },
      }),
    )
    expect(created.isError, created.text).toBe(false)
    const entity = JSON.parse(created.text) as { id: string; name: string }
    expect(entity.name).toBe('Acme Holdings')
    const audit = await t.database.db.execute(
      sql`select actor_type, actor_id, credential_id from audit_logs
          where org_id = ${owner.orgId} and action = 'entity.create' and target_id = ${entity.id}`,
    )
    expect((audit as unknown as { rows: unknown[] }).rows).toEqual([
      { actor_type: 'mcp', actor_id: owner.userId, credential_id: credentialId },
    ])
    await client.close()
  })

  it('refuses a write to a credential without the write scope, creating nothing', async () => {
    const owner = await firm('Mcp Read Only Firm')
    const client = await connect({ authorization: credentialOf(owner, ['read']).authorization })
    const result = resultOf(
      await client.callTool({ name: 'create_entity', arguments: { name: 'Never made' } }),
    )
    expect(result).toMatchObject({ isError: true })
    expect(result.text).toMatch(/^insufficient_scope/)
    const listed = resultOf(await client.callTool({ name: 'list_entities', arguments: {} }))
    expect(listed.text).not.toContain('Never made')
    await client.close()
  })

  it('refuses a caller without a credential, or with a session cookie only, with a Bearer challenge', async () => {
    const owner = await firm('Mcp Unauthorised Firm')
    await expect(connect({})).rejects.toThrow()
    for (const headers of [{}, owner.headers]) {
      const res = await rawInitialize(headers)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    }
    const refused = await rawInitialize({ authorization: 'Bearer lxtest_never-issued' })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
  })

  it('refuses every call until an owner turns external assistants on', async () => {
    const owner = await firm('Mcp Switched Off Firm', false)
    const { authorization } = credentialOf(owner)
    await expect(connect({ authorization })).rejects.toThrow()
    const res = await rawInitialize({ authorization })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ code: 'external_assistants_disabled' })
  })

  it('answers 405 to GET, having no server-sent stream to offer', async () => {
    const owner = await firm('Mcp Get Firm')
    const res = await fetch(endpoint, {
      headers: { authorization: credentialOf(owner).authorization, accept: 'text/event-stream' },
    })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST')
  })
})

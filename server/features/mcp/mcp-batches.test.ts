import { sql } from 'drizzle-orm'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { buildTestApp, signedInMember, type TestMember } from '../../test/test-app'
import { createTestCredentials } from '../../test/test-credentials'
import { MCP_RATE_LIMITED } from './budgeted-transport'

// Every search the MCP tools start goes through here: the wrapper counts those under way at once.
const searches = vi.hoisted(() => ({ running: 0, most: 0 }))
vi.mock('../../search/hybrid-search', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../search/hybrid-search')>()
  return {
    ...original,
    hybridSearch: async (...args: Parameters<typeof original.hybridSearch>) => {
      searches.running += 1
      searches.most = Math.max(searches.most, searches.running)
      try {
        return await original.hybridSearch(...args)
      } finally {
        searches.running -= 1
      }
    },
  }
})

const READS = 8
const WRITES = 3
const MAX_BATCH = 6

const credentials = createTestCredentials()
const t = await buildTestApp({
  credentialVerifiers: [credentials.verifier],
  apiRateLimits: {
    readsPerMinute: READS,
    writesPerMinute: WRITES,
    keyRequestsPerMinute: 1000,
    mcpMaxBatch: MAX_BATCH,
  },
})
await t.app.listen({ host: '127.0.0.1', port: 0 })
const endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/mcp`
afterAll(() => t.close())

/** An organisation with external assistants on, and a fresh credential of it (its own budgets). */
async function firmCredential(name: string): Promise<{ owner: TestMember; authorization: string }> {
  const owner = await signedInMember(t, name)
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/orgs/${owner.orgId}/external-assistants`,
    headers: owner.headers,
    payload: { enabled: true },
  })
  expect(res.statusCode, res.body).toBe(200)
  const { authorization } = credentials.issue({ orgId: owner.orgId, userId: owner.userId })
  return { owner, authorization }
}

/** A batch of tools/call requests, ids 1…n. */
const batchOf = (calls: { name: string; arguments: Record<string, unknown> }[]) =>
  calls.map((params, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params }))

interface Answer {
  id: number
  result?: { isError?: boolean; content: { text: string }[] }
  error?: { code: number; message: string; data?: { code?: string; retryAfter?: number } }
}

/** POSTs `body` to /mcp as a client of the 2025-03-26 protocol (the one with batches). */
function post(authorization: string, body: unknown) {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      authorization,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-03-26',
    },
    body: JSON.stringify(body),
  })
}

async function answersOf(res: Response): Promise<Answer[]> {
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as Answer[]
}

async function entitiesOf(orgId: string): Promise<string[]> {
  const found = await t.database.db.execute(
    sql`select name from entities where org_id = ${orgId} order by name`,
  )
  return (found as unknown as { rows: { name: string }[] }).rows.map((row) => row.name)
}

describe('JSON-RPC batches to /mcp', () => {
  it('counts every create_entity of a batch as a write, refusing those past the budget with a rate-limit error', async () => {
    const { owner, authorization } = await firmCredential('Mcp Batch Writer Firm')
    const calls = ['A', 'B', 'C', 'D', 'E'].map((n) => ({
      name: 'create_entity',
      arguments: { name: `Batch ${n}`, type: 'client' },
    }))
    const answers = await answersOf(await post(authorization, batchOf(calls)))
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5])
    expect(answers.slice(0, WRITES).every((a) => a.result?.isError !== true && !a.error)).toBe(true)
    for (const refused of answers.slice(WRITES)) {
      expect(refused.error).toMatchObject({
        code: MCP_RATE_LIMITED,
        data: { code: 'rate_limited' },
      })
      expect(refused.error?.data?.retryAfter).toBeGreaterThan(0)
      expect(refused.error?.message).toMatch(/^rate_limited: Too many requests/)
    }
    expect(await entitiesOf(owner.orgId)).toEqual(['Batch A', 'Batch B', 'Batch C'])
    // The budget is spent: a single call afterwards is the API's 429 problem.
    const single = await post(authorization, batchOf([calls[0]!])[0])
    expect(single.status).toBe(429)
    expect(Number(single.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await entitiesOf(owner.orgId)).toHaveLength(WRITES)
  })

  it('counts every read call of a batch against the reads per minute, as many REST reads would', async () => {
    const { authorization } = await firmCredential('Mcp Batch Reader Firm')
    const lists = Array.from({ length: MAX_BATCH }, () => ({
      name: 'list_entities',
      arguments: {},
    }))
    const first = await answersOf(await post(authorization, batchOf(lists)))
    expect(first.every((a) => a.result && !a.error)).toBe(true)
    const second = await answersOf(await post(authorization, batchOf(lists)))
    const left = READS - MAX_BATCH
    expect(second.slice(0, left).every((a) => a.result && !a.error)).toBe(true)
    expect(second.slice(left).map((a) => a.error?.code)).toEqual(
      Array.from({ length: MAX_BATCH - left }, () => MCP_RATE_LIMITED),
    )
  })

  it("runs a batch's searches one at a time, answering each in the batch's order", async () => {
    const { authorization } = await firmCredential('Mcp Batch Search Firm')
    const queries = ['indemnity', 'termination', 'governing law', 'payment terms', 'notice']
    searches.most = 0
    const answers = await answersOf(
      await post(
        authorization,
        batchOf(queries.map((query) => ({ name: 'search_passages', arguments: { query } }))),
      ),
    )
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5])
    expect(answers.every((a) => a.result && a.result.isError !== true)).toBe(true)
    expect(searches.most).toBe(1)
  })

  it('refuses a batch of more than MCP_MAX_BATCH messages with a 413 problem, running none of it', async () => {
    const { owner, authorization } = await firmCredential('Mcp Batch Too Large Firm')
    const calls = Array.from({ length: MAX_BATCH + 1 }, (_, i) => ({
      name: 'create_entity',
      arguments: { name: `Oversized ${i}` },
    }))
    const res = await post(authorization, batchOf(calls))
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(await res.json()).toMatchObject({ code: 'mcp_batch_too_large' })
    expect(await entitiesOf(owner.orgId)).toEqual([])
  })
})

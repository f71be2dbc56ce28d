/**
 * The MCP-batch neighbour of noisy-neighbour.ts (issue 41): an assistant with a read-only API key
 * of its own firm sending JSON-RPC batches of `search_passages` to `/mcp`, back to back, from
 * several loops at once. Before decision 0105 a batch of 100 counted as one request and started
 * its hundred searches at once; the issue measured another firm's document list going from 11 ms
 * to 6.9 s. The bench server lifts the per-principal budgets (start-bench-server.ts), so what is
 * measured here is the bound on the work one request may queue, not the rate limit.
 */
import type { ChildServer } from '../server/test/child-server'
import type { HttpMember } from '../server/test/http-member'

/** What the batches got: HTTP answers, and the calls answered, refused by the budget or failed. */
export interface McpFloodOutcome {
  batches: number
  /** Batches answered other than 200 (413 when over MCP_MAX_BATCH, 429, network errors). */
  refusedBatches: number
  calls: number
  answered: number
  rateLimited: number
  failed: number
  /** Each batch's latency in ms, sorted. */
  latencies: number[]
}

const QUERIES = [
  'termination for convenience',
  'limitation of liability',
  'governing law and jurisdiction',
  'confidential information',
  'payment terms and late interest',
  'force majeure events',
  'assignment and subcontracting',
  'indemnity for third party claims',
]

/** Clauses of the firm's few documents, so each search has passages to rank. */
const CLAUSES = QUERIES.map(
  (topic, i) =>
    `Clause ${i + 1}. ${topic[0]!.toUpperCase()}${topic.slice(1)}. The parties agree that ${topic} shall be governed by this agreement, and that any notice about ${topic} is given in writing to the other party within thirty days.`,
)

/**
 * Readies `member`'s firm for an assistant: external assistants on, a few pasted documents, and
 * a read-only API key; returns the key as an Authorization value. Throws on any refusal.
 */
export async function readyAssistant(server: ChildServer, member: HttpMember): Promise<string> {
  const api = `${server.origin}/api/v1/orgs/${member.orgId}`
  const json = { ...member.headers, 'content-type': 'application/json' }
  const check = async (res: Response, what: string) => {
    if (!res.ok) throw new Error(`${what} answered ${res.status}: ${await res.text()}`)
    return res
  }
  await check(
    await fetch(`${api}/external-assistants`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ enabled: true }),
    }),
    'Turning external assistants on',
  )
  for (const [i, clause] of CLAUSES.entries()) {
    await check(
      await fetch(`${api}/documents/text`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: `Agreement ${i + 1}`, content: clause.repeat(20) }),
      }),
      'Pasting a document',
    )
  }
  const created = await check(
    await fetch(`${api}/api-keys`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Assistant (bench)', scopes: 'read' }),
    }),
    'Creating the API key',
  )
  return `Bearer ${((await created.json()) as { key: string }).key}`
}

/**
 * Sends batches of `batch` search_passages calls to `origin`/mcp with `authorization` from
 * `clients` loops until `done()`; resolves with what they got.
 */
export async function floodMcpBatches(
  origin: string,
  authorization: string,
  options: { batch: number; clients: number; done: () => boolean },
): Promise<McpFloodOutcome> {
  const outcome: McpFloodOutcome = {
    batches: 0,
    refusedBatches: 0,
    calls: 0,
    answered: 0,
    rateLimited: 0,
    failed: 0,
    latencies: [],
  }
  let sent = 0
  const loop = async () => {
    while (!options.done()) {
      const body = Array.from({ length: options.batch }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'search_passages', arguments: { query: QUERIES[(sent += 1) % 8] } },
      }))
      const t0 = performance.now()
      const res = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-03-26',
        },
        body: JSON.stringify(body),
      }).catch(() => null)
      const text = (await res?.text().catch(() => null)) ?? null
      outcome.latencies.push(performance.now() - t0)
      outcome.batches += 1
      outcome.calls += options.batch
      if (res?.status !== 200 || text === null) {
        outcome.refusedBatches += 1
        continue
      }
      for (const answer of JSON.parse(text) as {
        result?: { isError?: boolean }
        error?: { data?: { code?: string } }
      }[]) {
        if (answer.error?.data?.code === 'rate_limited') outcome.rateLimited += 1
        else if (answer.error || answer.result?.isError) outcome.failed += 1
        else outcome.answered += 1
      }
    }
  }
  await Promise.all(Array.from({ length: options.clients }, loop))
  outcome.latencies.sort((a, b) => a - b)
  return outcome
}

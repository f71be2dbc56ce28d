import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { OpenAIAnalyzer } from './openai-analyzer'
import { AnalysisResult } from './types'

const CONTRACT =
  'SUPPLY AGREEMENT\n\nThis Agreement is made between Acme Corp. ("Acme") and Beta LLC ("Beta").\n\nBeta may terminate this Agreement\nfor convenience on ten days notice.\n\nThis Agreement is governed by the laws of the State of New York.'

interface FakeProvider {
  baseURL: string
  requests: unknown[]
}

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  )
})

/**
 * A fake OpenAI-compatible provider on 127.0.0.1: answers the n-th chat request with replies[n]
 * (a message content string, or a number for an HTTP error status).
 */
async function fakeProvider(replies: readonly (string | number)[]): Promise<FakeProvider> {
  const requests: unknown[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      requests.push(JSON.parse(body))
      const reply = replies[requests.length - 1] ?? 500
      res.setHeader('content-type', 'application/json')
      if (typeof reply === 'number') {
        res.statusCode = reply
        res.end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }))
        return
      }
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: 'fake-model',
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply } },
          ],
        }),
      )
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { baseURL: `http://127.0.0.1:${port}/v1`, requests }
}

const VALID_OUTPUT = JSON.stringify({
  summary: [
    'This Agreement is made between Acme Corp. ("Acme") and Beta LLC ("Beta").',
    'A sentence the model made up.',
  ],
  clauses: [
    {
      category: 'Termination For Convenience',
      quote: 'Beta may terminate this Agreement for convenience',
      confidence: 0.9,
    },
    {
      category: 'Governing Law',
      quote: 'governed by the laws of the State of New York',
      confidence: 0.95,
    },
  ],
  risks: [
    {
      code: 'termination-for-convenience',
      severity: 'medium',
      title: 'Termination for convenience',
      explanation: 'Beta can walk away.',
      quote: 'Beta may terminate this Agreement for convenience on ten days notice.',
    },
    {
      code: 'liability-missing',
      severity: 'high',
      title: 'No limitation of liability',
      explanation: 'The clause is absent.',
      quote: null,
    },
  ],
  keyTerms: {
    parties: [
      { name: 'Acme Corp.', quote: 'Acme Corp.' },
      { name: 'Beta LLC', quote: 'Beta LLC' },
    ],
    governingLaw: { value: 'New York', quote: 'the laws of the State of New York' },
    agreementDate: null,
  },
})

function analyzerFor(provider: FakeProvider): OpenAIAnalyzer {
  return new OpenAIAnalyzer({ baseURL: provider.baseURL, apiKey: 'test-key', model: 'fake-model' })
}

describe('OpenAIAnalyzer', () => {
  it('locates each quote in the content and drops quotes it cannot find', async () => {
    const provider = await fakeProvider([VALID_OUTPUT])
    const result = AnalysisResult.parse(await analyzerFor(provider).analyze(CONTRACT, 'full'))
    expect(result).toMatchObject({ engine: 'openai', model: 'fake-model' })
    expect(result.summary.sentences).toHaveLength(1)
    expect(result.clauses.map((c) => c.category)).toEqual([
      'Termination For Convenience',
      'Governing Law',
    ])
    // The model reflowed a line break into a space: found by the whitespace-insensitive match.
    expect(result.clauses[0]?.text).toBe('Beta may terminate this Agreement\nfor convenience')
    for (const span of [...result.summary.sentences, ...result.clauses]) {
      expect(CONTRACT.slice(span.start, span.end)).toBe(span.text)
    }
    expect(result.keyTerms.parties.map((p) => p.name)).toEqual(['Acme Corp.', 'Beta LLC'])
    expect(result.keyTerms.governingLaw?.value).toBe('New York')
    const missing = result.risks.find((r) => r.code === 'liability-missing')
    expect(missing).toMatchObject({ absent: true, start: 0, end: 0 })
    expect(provider.requests[0]).toMatchObject({
      model: 'fake-model',
      response_format: { type: 'json_object' },
    })
  })

  it('retries once after invalid output and then succeeds', async () => {
    const provider = await fakeProvider(['not json at all', VALID_OUTPUT])
    const result = await analyzerFor(provider).analyze(CONTRACT, 'clauses')
    expect(result.clauses).toHaveLength(2)
    expect(result.summary).toEqual({ text: '', sentences: [] })
    expect(provider.requests).toHaveLength(2)
  })

  it('retries once after a provider error, then rejects with a clear message', async () => {
    const provider = await fakeProvider([500, JSON.stringify({ risks: 'not a list' })])
    await expect(analyzerFor(provider).analyze(CONTRACT, 'risks')).rejects.toThrow(
      /^The AI provider failed: /,
    )
    expect(provider.requests).toHaveLength(2)
  })

  it('does not retry when aborted', async () => {
    const provider = await fakeProvider([VALID_OUTPUT])
    await expect(
      analyzerFor(provider).analyze(CONTRACT, 'full', { signal: AbortSignal.abort() }),
    ).rejects.toThrow()
    expect(provider.requests).toHaveLength(0)
  })
})

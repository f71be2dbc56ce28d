import { afterEach, describe, expect, it } from 'vitest'
import {
  fakeStructuredOpenAI,
  type FakeChatRequest,
  type FakeReply,
  type FakeStructuredOpenAI,
} from '../../test/fake-structured-openai'
import { OpenAIAnalyzer } from './openai-analyzer'
import { AnalysisResult, DEAL_SHEET_KEYS } from './types'

const CONTRACT =
  'SUPPLY AGREEMENT\n\nThis Agreement is made between Acme Corp. ("Acme") and Beta LLC ("Beta").\n\nAcme shall pay Beta USD 10,000 per month within 30 days of invoice.\n\nBeta may terminate this Agreement\nfor convenience on ten days notice.\n\nThis Agreement is governed by the laws of the State of New York.'

const INVENTED = 'Beta shall indemnify Acme against all losses whatsoever.'

const NO_TERMS = {
  agreementDate: null,
  effectiveDate: null,
  expirationDate: null,
  governingLaw: null,
  renewalTerm: null,
  noticePeriod: null,
}

/** A complete answer to a 'full' request (strict schemas want every key), with `parts` over it. */
function fullAnswer(parts: Record<string, unknown> = {}): string {
  return JSON.stringify({
    summary: [],
    dealSheet: { lines: [], attention: [] },
    clauses: [],
    keyTerms: { parties: [], ...NO_TERMS },
    risks: [],
    ...parts,
  })
}

const ANSWER = fullAnswer({
  summary: [
    'This Agreement is made between Acme Corp. ("Acme") and Beta LLC ("Beta").',
    'A sentence the model made up.',
  ],
  dealSheet: {
    lines: [
      {
        key: 'money',
        value: 'Acme → Beta, USD 10,000 a month, 30 days from invoice',
        quotes: ['Acme shall pay Beta USD 10,000 per month within 30 days of invoice.'],
      },
      { key: 'liability', value: 'Beta indemnifies Acme without limit', quotes: [INVENTED] },
      { key: 'confidentiality', value: null, quotes: [] },
    ],
    attention: [
      { text: 'Beta can leave on ten days notice.', quotes: ['Beta may terminate this Agreement'] },
      { text: 'No cap on liability.', quotes: [] },
    ],
  },
  clauses: [
    {
      category: 'Termination For Convenience',
      quote: 'Beta may terminate this Agreement for convenience',
      confidence: 0.9,
    },
    { category: 'Uncapped Liability', quote: INVENTED, confidence: 0.8 },
    {
      category: 'Governing Law',
      quote: 'governed by the laws of the State of New York',
      confidence: 0.95,
    },
  ],
  keyTerms: {
    parties: [
      { name: 'Acme Corp.', definedTerm: 'Acme', role: 'Customer', quote: 'Acme Corp.' },
      { name: 'Beta LLC', definedTerm: 'Beta', role: null, quote: 'Beta LLC' },
    ],
    ...NO_TERMS,
    governingLaw: { value: 'New York', quote: 'the laws of the State of New York' },
  },
  risks: [
    {
      code: 'termination-for-convenience',
      severity: 'medium',
      title: 'Termination for convenience',
      explanation: 'Beta can walk away.',
      binds: ['Acme Corp.'],
      quote: 'Beta may terminate this Agreement for convenience on ten days notice.',
    },
    {
      code: 'liability-missing',
      severity: 'high',
      title: 'No limitation of liability',
      explanation: 'The clause is absent.',
      binds: [],
      quote: null,
    },
  ],
})

let fake: FakeStructuredOpenAI | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function provider(replies: FakeReply[], options: { refusesJsonSchema?: boolean } = {}) {
  fake = await fakeStructuredOpenAI(replies, options)
  return fake
}

function analyzerFor(server: FakeStructuredOpenAI, contextChars?: number): OpenAIAnalyzer {
  return new OpenAIAnalyzer({
    baseURL: server.baseURL,
    apiKey: 'test-key',
    model: 'fake-model',
    contextChars,
  })
}

/** Every cited span in `result` quotes the contract exactly. */
function expectSpansQuoteTheText(result: AnalysisResult) {
  const quoted = [
    ...result.summary.sentences,
    ...result.clauses,
    ...(result.summary.dealSheet?.lines.flatMap((line) => line.citations) ?? []),
    ...(result.summary.dealSheet?.attention.flatMap((point) => point.citations) ?? []),
  ]
  for (const span of quoted) expect(CONTRACT.slice(span.start, span.end)).toBe(span.text)
}

describe('OpenAIAnalyzer', () => {
  it("asks for strict json_schema structured output built from the result's schema", async () => {
    const server = await provider([ANSWER])
    await analyzerFor(server).analyze(CONTRACT, 'full')
    const format = server.requests[0]?.response_format
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } })
    const schema = format?.json_schema?.schema as {
      properties: Record<string, { properties?: Record<string, unknown> }>
      required: string[]
      additionalProperties: boolean
    }
    expect(schema.required.sort()).toEqual(['clauses', 'dealSheet', 'keyTerms', 'risks', 'summary'])
    expect(schema.additionalProperties).toBe(false)
    expect(JSON.stringify(schema.properties.clauses)).toContain('"Governing Law"')
    expect(JSON.stringify(schema.properties.dealSheet)).toContain('"assignment"')
    expect(JSON.stringify(schema.properties.risks)).toContain('"liability-uncapped"')
    // A kind asks only for its parts.
    await analyzerFor(server)
      .analyze(CONTRACT, 'risks')
      .catch(() => undefined)
    const risksOnly = server.requests[1]?.response_format?.json_schema?.schema as {
      required: string[]
    }
    expect(risksOnly.required).toEqual(['risks'])
  })

  it('cites every verified quote with offsets into the text, across every kind of finding', async () => {
    const server = await provider([ANSWER])
    const result = AnalysisResult.parse(await analyzerFor(server).analyze(CONTRACT, 'full'))
    expect(result).toMatchObject({ engine: 'openai', model: 'fake-model' })
    expectSpansQuoteTheText(result)
    expect(result.clauses.map((c) => c.category)).toEqual([
      'Termination For Convenience',
      'Governing Law',
    ])
    // The model reflowed a line break into a space: found by the whitespace-insensitive match.
    expect(result.clauses[0]?.text).toBe('Beta may terminate this Agreement\nfor convenience')
    expect(result.keyTerms.parties).toMatchObject([
      { name: 'Acme Corp.', role: 'Customer', definedTerm: { text: 'Acme' } },
      { name: 'Beta LLC', definedTerm: { text: 'Beta' } },
    ])
    const acme = result.keyTerms.parties[0]
    expect(acme?.definedTerm?.start).toBe(CONTRACT.indexOf('"Acme"') + 1)
    expect(result.keyTerms.governingLaw?.value).toBe('New York')
    expect(result.risks[0]).toMatchObject({ binds: ['Acme Corp.'], severity: 'medium' })
    expect(result.risks.find((r) => r.code === 'liability-missing')).toMatchObject({
      absent: true,
      start: 0,
      end: 0,
    })
    const sheet = result.summary.dealSheet
    expect(sheet?.lines.map((line) => line.key)).toEqual([...DEAL_SHEET_KEYS])
    expect(sheet?.lines.find((line) => line.key === 'money')).toMatchObject({
      label: 'Money',
      value: 'Acme → Beta, USD 10,000 a month, 30 days from invoice',
      citations: [{ text: 'Acme shall pay Beta USD 10,000 per month within 30 days of invoice.' }],
    })
    expect(sheet?.attention.map((point) => point.text)).toEqual([
      'Beta can leave on ten days notice.',
      'No cap on liability.',
    ])
  })

  it('drops a finding whose quote is not in the text and counts it, without logging the text', async () => {
    const server = await provider([ANSWER])
    const messages: string[] = []
    const result = await analyzerFor(server).analyze(CONTRACT, 'full', {
      onProgress: (_fraction, message) => messages.push(message),
    })
    // The made-up summary sentence, the invented clause and the invented liability line.
    expect(result.droppedUnverified).toBe(3)
    expect(result.summary.sentences.map((s) => s.text)).toEqual([
      'This Agreement is made between Acme Corp. ("Acme") and Beta LLC ("Beta").',
    ])
    expect(result.clauses.some((c) => c.category === 'Uncapped Liability')).toBe(false)
    expect(result.summary.dealSheet?.lines.find((l) => l.key === 'liability')).toMatchObject({
      value: null,
      citations: [],
    })
    expect(messages.at(-1)).toBe(
      'Analysed; 3 finding(s) dropped because their quotes are not in the text',
    )
    expect(messages.join('\n')).not.toMatch(/Acme|Beta|indemnify/)
  })

  it('falls back to json_object with the schema in the prompt when the server refuses json_schema', async () => {
    const server = await provider([ANSWER, ANSWER], { refusesJsonSchema: true })
    const analyzer = analyzerFor(server)
    const result = await analyzer.analyze(CONTRACT, 'full')
    expect(result.clauses).toHaveLength(2)
    expect(server.requests.map((r) => r.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
    ])
    const system = server.requests[1]?.messages[0]?.content ?? ''
    expect(system).toContain('conforms to this JSON Schema')
    expect(system).toContain('"dealSheet"')
    // The server's answer is remembered: the next analysis asks json_object straight away.
    await analyzer.analyze(CONTRACT, 'full')
    expect(server.requests.map((r) => r.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ])
  })

  it('rejects a malformed answer with a clear error after one retry', async () => {
    const malformed = fullAnswer({ clauses: 'not a list' })
    const server = await provider([malformed, malformed])
    await expect(analyzerFor(server).analyze(CONTRACT, 'full')).rejects.toThrow(
      /^The AI provider failed: the model's JSON did not match the expected shape at clauses/,
    )
    expect(server.requests).toHaveLength(2)
  })

  it('retries once after invalid output and then succeeds', async () => {
    const server = await provider(['not json at all', ANSWER])
    const result = await analyzerFor(server).analyze(CONTRACT, 'full')
    expect(result.clauses).toHaveLength(2)
    expect(server.requests).toHaveLength(2)
  })

  it('retries once after a provider error, then rejects with a clear message', async () => {
    const server = await provider([500, 503])
    await expect(analyzerFor(server).analyze(CONTRACT, 'risks')).rejects.toThrow(
      /^The AI provider failed: /,
    )
    expect(server.requests).toHaveLength(2)
  })

  it('reads a document longer than its context in parts, citing each part at its own offsets', async () => {
    const replyFor = (request: FakeChatRequest) => {
      const part = request.messages[1]?.content ?? ''
      const clauses = part.includes('Beta may terminate')
        ? [
            {
              category: 'Termination For Convenience',
              quote: 'Beta may terminate this Agreement for convenience',
              confidence: 0.9,
            },
          ]
        : []
      // Every part but the last says liability is missing; the last says so too only for MFN.
      const absent = (code: string) => ({
        code,
        severity: 'high',
        title: code,
        explanation: 'Missing.',
        binds: [],
        quote: null,
      })
      const risks = part.includes('governed by')
        ? [absent('most-favoured-nation')]
        : [absent('most-favoured-nation'), absent('liability-missing')]
      const summary = [part.split('\n')[0] ?? '']
      return fullAnswer({ clauses, risks, summary })
    }
    const server = await provider([replyFor, replyFor, replyFor, replyFor, replyFor])
    const fractions: number[] = []
    const result = await analyzerFor(server, 120).analyze(CONTRACT, 'full', {
      onProgress: (fraction) => fractions.push(fraction),
    })
    const parts = server.requests.length
    expect(parts).toBeGreaterThan(1)
    for (const request of server.requests) {
      expect(request.messages[1]?.content.length).toBeLessThanOrEqual(120)
      expect(request.messages[0]?.content).toMatch(/^The user message is part \d of \d/m)
    }
    expect(fractions).toEqual([...Array.from({ length: parts }, (_, i) => i / parts), 1])
    expect(result.clauses).toHaveLength(1)
    expect(result.clauses[0]?.start).toBe(CONTRACT.indexOf('Beta may terminate'))
    expectSpansQuoteTheText(result)
    expect(result.summary.sentences.length).toBe(parts)
    expect(result.risks.map((r) => r.code)).toEqual(['most-favoured-nation'])
    expect(result.droppedUnverified).toBe(0)
  })

  it('returns nothing when a later part of a long document fails', async () => {
    const server = await provider([fullAnswer(), 'not json', 'still not json', fullAnswer()])
    const progress: number[] = []
    await expect(
      analyzerFor(server, 120).analyze(CONTRACT, 'full', {
        onProgress: (fraction) => progress.push(fraction),
      }),
    ).rejects.toThrow(/^The AI provider failed: the model did not return valid JSON/)
    expect(server.requests).toHaveLength(3)
    expect(progress).not.toContain(1)
  })

  it('does not retry when aborted', async () => {
    const server = await provider([ANSWER])
    await expect(
      analyzerFor(server).analyze(CONTRACT, 'full', { signal: AbortSignal.abort() }),
    ).rejects.toThrow()
    expect(server.requests).toHaveLength(0)
  })
})

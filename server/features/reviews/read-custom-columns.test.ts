import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../../test/test-app'
import { finishedJob } from '../../test/finished-job'
import { pasteDocument } from '../../test/pasted-document'
import { fakeOpenAI, type FakeOpenAI } from '../../test/fake-openai'
import { OpenAIColumnReader } from '../../ai/analyzer/openai-column-reader'
import { createColumnReader } from '../../ai/analyzer/create-analyzer'
import { withTenant } from '../../db/tenant'
import { reviewCells } from '../../db/schema'
import { normalisedAnswer, readCustomColumns, relevantExcerpts } from './read-custom-columns'

const MSA = `MASTER SERVICES AGREEMENT

This Master Services Agreement is made on March 1, 2024 between Northwind Traders Ltd ("Supplier") and Contoso Bank plc ("Client").

1. Fees. The Client shall pay the Supplier a fee of $250,000 per year.

2. Termination. Either party may terminate this Agreement on sixty (60) days' written notice.

3. Assignment. The Client may not assign this Agreement without the Supplier's prior written consent.

4. Governing law. This Agreement is governed by the laws of England and Wales.`

const NDA = `MUTUAL NON-DISCLOSURE AGREEMENT

This Agreement is made between Fabrikam Inc. ("Fabrikam") and Tailspin Toys LLC ("Tailspin").

1. Term. This Agreement continues for two (2) years from the date of the last signature.

2. Assignment. Either party may assign this Agreement to an affiliate.`

/** Custom columns of every kind the fake answers, in the order of their keys q1…q4. */
const CUSTOM = [
  { question: 'May the Client assign this Agreement?', answerType: 'yes_no' },
  { question: 'What is the date of the agreement?', answerType: 'date' },
  { question: 'What fee does the Client pay?', answerType: 'money' },
  { question: 'What notice period applies to termination?', answerType: 'duration' },
] as const

/** The fake model's answers, by the question's type word in the request and the contract sent. */
function modelAnswer(body: Record<string, unknown>) {
  const messages = body.messages as { content: string }[]
  const user = messages[1]!.content
  const msa = user.includes('Northwind')
  const byType: Record<string, { value: unknown; quotes: string[] }> = msa
    ? {
        'yes/no': {
          value: false,
          quotes: [
            "The Client may not assign this Agreement without the Supplier's prior written consent.",
          ],
        },
        date: { value: 'March 1, 2024', quotes: ['made on March 1, 2024'] },
        'amount of money': {
          value: { amount: 250000, currency: '$' },
          quotes: ['a fee of $250,000   per year'],
        },
        'period of time': { value: 'sixty (60) days', quotes: ["sixty (60) days' written notice"] },
      }
    : {
        // One quote of two not in the contract: the answer does not stand on what it cites.
        'yes/no': {
          value: true,
          quotes: [
            'Either party may assign this Agreement to an affiliate.',
            'Assignment needs no consent.',
          ],
        },
        // A quote the contract does not hold: the cell must not be shown as an answer.
        date: { value: '2023-04-02', quotes: ['made on 2 April 2023'] },
        'amount of money': { value: null, quotes: [] },
        'period of time': { value: 'two (2) years', quotes: [] },
      }
  const answers: Record<string, unknown> = {}
  for (const m of user.matchAll(/^- (q\d+) \(([^)]+)\):/gm)) answers[m[1]!] = byType[m[2]!]
  return { content: JSON.stringify({ answers }) }
}

let provider: FakeOpenAI
let t: TestApp
let alice: TestMember

beforeAll(async () => {
  provider = await fakeOpenAI()
  t = await buildTestApp({
    engines: {
      columnReader: new OpenAIColumnReader({ baseURL: provider.baseURL, model: 'fake-columns' }),
    },
  })
  alice = await signedInMember(t, 'Column firm')
}, 60_000)
afterAll(async () => {
  await t.close()
  await provider.close()
})

const completions = () => provider.requests.filter((r) => r.path.endsWith('/chat/completions'))

async function reviewOf(m: TestMember, documentIds: string[], columns: object[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${m.orgId}/reviews`,
    headers: m.headers,
    payload: { name: 'Engine review', rows: { source: 'selection', documentIds }, columns },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as { id: string; fillJob: { id: string }; columns: { id: string }[] }
}

interface Cell {
  documentId: string
  columnId: string
  state: string
  reason: string | null
  answer: Record<string, unknown> | null
  citations: { start: number; end: number; text: string }[]
}

async function cellsOf(m: TestMember, reviewId: string) {
  const res = await t.app.inject({
    url: `/api/v1/orgs/${m.orgId}/reviews/${reviewId}/cells?limit=1000`,
    headers: m.headers,
  })
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as { items: Cell[] }).items
}

describe('custom columns with an OpenAI-compatible engine', () => {
  it('makes one structured call per document for all its custom columns and keeps presets local', async () => {
    provider.complete = modelAnswer
    const before = completions().length
    const msa = await pasteDocument(t, alice, 'Northwind MSA', MSA)
    const nda = await pasteDocument(t, alice, 'Fabrikam NDA', NDA)
    const review = await reviewOf(alice, [msa, nda], [{ preset: 'term:parties' }, ...CUSTOM])
    const job = await finishedJob(t, alice, review.fillJob.id)
    expect(job.status, job.error ?? '').toBe('succeeded')

    const calls = completions().slice(before)
    expect(calls).toHaveLength(2)
    for (const call of calls) {
      const format = call.body.response_format as {
        type: string
        json_schema: {
          strict: boolean
          schema: { properties: { answers: { properties: object } } }
        }
      }
      expect(format.type).toBe('json_schema')
      expect(format.json_schema.strict).toBe(true)
      expect(Object.keys(format.json_schema.schema.properties.answers.properties)).toEqual([
        'q1',
        'q2',
        'q3',
        'q4',
      ])
    }

    const cells = await cellsOf(alice, review.id)
    const [parties, assign, date, fee, notice] = review.columns.map((c) => c.id)
    const cell = (documentId: string, columnId: string | undefined) =>
      cells.find((c) => c.documentId === documentId && c.columnId === columnId)!
    const texts: Record<string, string> = { [msa]: MSA, [nda]: NDA }
    for (const c of cells.filter((c) => c.state === 'answered'))
      for (const citation of c.citations)
        expect(texts[c.documentId]!.slice(citation.start, citation.end)).toBe(citation.text)

    // The preset is the local reading's, as offline.
    expect(cell(msa, parties).state).toBe('answered')
    expect(cell(msa, assign)).toMatchObject({
      state: 'answered',
      answer: { type: 'yes_no', value: false },
    })
    expect(cell(msa, date)).toMatchObject({
      state: 'answered',
      answer: { type: 'date', value: '2024-03-01' },
    })
    // A quote with its spaces reflowed is located all the same; money gets its ISO code.
    expect(cell(msa, fee)).toMatchObject({
      state: 'answered',
      answer: { type: 'money', amount: 250000, currency: 'USD' },
      citations: [{ text: 'a fee of $250,000 per year' }],
    })
    expect(cell(msa, notice)).toMatchObject({
      state: 'answered',
      answer: { type: 'duration', months: 2 },
    })

    expect(cell(nda, assign)).toMatchObject({ state: 'unverified', answer: null })
    // A quote that is not in the document: unverified, never an answer.
    expect(cell(nda, date)).toMatchObject({ state: 'unverified', answer: null })
    expect(cell(nda, date).reason).toMatch(/not in the document/)
    expect(cell(nda, fee).state).toBe('not_found')
    // An answer resting on no quote is not an answer either.
    expect(cell(nda, notice)).toMatchObject({ state: 'unverified', answer: null })
    expect(job.result).toMatchObject({ total: 10, unverified: 3, droppedQuotes: 2 })
  })

  it("fails a document's custom cells with the engine's fault, not the fill, and hides the provider's words", async () => {
    // A server error is tried again once (two calls), then the document's custom cells fail.
    provider.complete = () => ({ status: 503 })
    const before = completions().length
    const m = await signedInMember(t, 'Failing engine firm')
    const doc = await pasteDocument(t, m, 'Northwind MSA', MSA)
    const review = await reviewOf(m, [doc], [{ preset: 'term:parties' }, ...CUSTOM])
    const job = await finishedJob(t, m, review.fillJob.id)
    expect(job.status, job.error ?? '').toBe('succeeded')
    expect(completions().length - before).toBe(2)
    const cells = await cellsOf(m, review.id)
    expect(cells.map((c) => c.state)).toEqual(['answered', 'failed', 'failed', 'failed', 'failed'])
    for (const c of cells.slice(1)) {
      expect(c.reason).toBe('The AI engine refused the request (HTTP 503); retry the cell.')
      expect(c.reason).not.toContain('10.0.0.7')
    }

    // JSON of another shape is a fault too, retried once, then failed cells with its reason.
    provider.complete = () => ({ content: '{"answers": {"q1": "yes"}}' })
    const retried = completions().length
    const again = await reviewOf(m, [doc], [CUSTOM[0]])
    expect((await finishedJob(t, m, again.fillJob.id)).status).toBe('succeeded')
    expect(completions().length - retried).toBe(2)
    const [failed] = await cellsOf(m, again.id)
    expect(failed).toMatchObject({ state: 'failed' })
    expect(failed!.reason).toMatch(
      /^The AI engine's answer was not usable \(.*\); retry the cell\.$/,
    )
  })

  it('aborts the call when the fill is cancelled and leaves the cells pending', async () => {
    let arrived!: () => void
    const waiting = new Promise<void>((resolve) => (arrived = resolve))
    provider.complete = () => {
      arrived()
      return new Promise(() => {})
    }
    const aborted = provider.aborted
    const m = await signedInMember(t, 'Cancelling firm')
    const doc = await pasteDocument(t, m, 'Northwind MSA', MSA)
    const review = await reviewOf(m, [doc], [...CUSTOM])
    await waiting
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${m.orgId}/jobs/${review.fillJob.id}/cancel`,
      headers: m.headers,
    })
    expect(res.statusCode, res.body).toBeLessThan(300)
    expect((await finishedJob(t, m, review.fillJob.id)).status).toBe('cancelled')
    await expect.poll(() => provider.aborted).toBe(aborted + 1)
    const written = await withTenant(t.database.db, { orgId: m.orgId }, (tx) =>
      tx
        .select({ state: reviewCells.state })
        .from(reviewCells)
        .where(eq(reviewCells.reviewId, review.id)),
    )
    expect(written.map((c) => c.state)).toEqual(['pending', 'pending', 'pending', 'pending'])
  })
})

describe('a document longer than the context', () => {
  it('sends the passages most relevant to the questions and cites the quotes where they stand in the document', async () => {
    const opening = Array.from(
      { length: 60 },
      (_, i) => `Clause ${i + 1}. The parties shall cooperate in good faith.`,
    ).join('\n\n')
    const content = `${opening}\n\nFees. The Client shall pay a fee of EUR 90,000 per year.\n\n${opening}`
    const reader = new OpenAIColumnReader({
      baseURL: provider.baseURL,
      model: 'fake-columns',
      contextChars: 400,
    })
    let sent = ''
    provider.complete = (body) => {
      sent = (body.messages as { content: string }[])[1]!.content
      return {
        content: JSON.stringify({
          answers: {
            q1: { value: { amount: 90000, currency: 'EUR' }, quotes: ['a fee of EUR 90,000'] },
          },
        }),
      }
    }
    const read = await readCustomColumns(reader, { content }, [
      {
        id: 'fee',
        presetKey: null,
        question: 'What fee does the Client pay?',
        answerType: 'money',
      },
    ])
    expect(read.excerpted).toBe(true)
    expect(sent).toContain('Fees. The Client shall pay a fee of EUR 90,000 per year.')
    expect(sent.length).toBeLessThan(1_000)
    const at = content.indexOf('a fee of EUR 90,000')
    expect(read.outcomes.get('fee')).toEqual({
      state: 'answered',
      answer: { type: 'money', amount: 90000, currency: 'EUR' },
      citations: [
        { start: at, end: at + 'a fee of EUR 90,000'.length, text: 'a fee of EUR 90,000' },
      ],
    })
  })
})

describe('the column reader offline', () => {
  it('is none: a local analysis engine leaves custom columns to the offline rules', () => {
    expect(createColumnReader({ engine: 'local' })).toBeNull()
    expect(
      createColumnReader({ engine: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
    ).toBeInstanceOf(OpenAIColumnReader)
  })
})

describe('relevantExcerpts', () => {
  const filler = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `Clause ${i + 1}. The parties shall cooperate in good faith.`,
    )
  const long = [
    ...filler(40),
    'Liability. The total liability of the Supplier is capped at the fees paid in the prior year.',
    ...filler(40),
    'Exclusivity. The Client shall buy the goods from the Supplier exclusively.',
    ...filler(40),
  ].join('\n\n')

  it("sends each question's best passages within the context, as the document's own slices", () => {
    const excerpts = relevantExcerpts(
      long,
      ['What is the cap on the liability of the Supplier?', 'Is the Client bound to exclusivity?'],
      600,
    )
    const sent = excerpts.map((e) => e.text).join('')
    expect(sent).toContain('capped at the fees paid')
    expect(sent).toContain('exclusively')
    expect(excerpts.reduce((sum, e) => sum + e.text.length + 8, 0)).toBeLessThanOrEqual(600)
    for (const e of excerpts) expect(long.slice(e.start, e.start + e.text.length)).toBe(e.text)
    // In document order.
    expect(excerpts.map((e) => e.start)).toEqual(
      [...excerpts.map((e) => e.start)].sort((a, b) => a - b),
    )
  })
})

describe('normalisedAnswer', () => {
  it('normalises as the offline answers do, and refuses a value not of its type', () => {
    expect(normalisedAnswer('date', '1 March 2024')).toEqual({ type: 'date', value: '2024-03-01' })
    expect(normalisedAnswer('duration', 'one (1) year')).toEqual({
      type: 'duration',
      months: 12,
      text: 'one (1) year',
    })
    expect(normalisedAnswer('money', { amount: 10, currency: 'eur' })).toEqual({
      type: 'money',
      amount: 10,
      currency: 'EUR',
    })
    expect(
      normalisedAnswer('money', { amount: 1, currency: 'pesos?' }, [
        { start: 0, end: 12, text: 'USD 2 million' },
      ]),
    ).toEqual({ type: 'money', amount: 2_000_000, currency: 'USD' })
    expect(normalisedAnswer('party', [' Acme  Ltd ', 'Acme Ltd', ''])).toEqual({
      type: 'party',
      names: ['Acme Ltd'],
    })
    expect(normalisedAnswer('date', 'soon')).toBeNull()
    expect(normalisedAnswer('yes_no', 'yes')).toBeNull()
    expect(normalisedAnswer('list', [])).toBeNull()
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isWellFormed } from '../../test/well-formed'
import { analyzeLocal } from '../../ai/analyzer/local/analyze-local'
import { SAMPLE_CONTRACT } from '../../test/sample-files'
import { analysisOfText, answerDocument, checked, type AnswerColumn } from './answer-document'
import { ANSWER_TYPES, answerText, durationIn, moneyIn } from './review-answer'
import { REVIEW_PRESETS } from './review-presets'

/** Every preset, and a custom column of each answer type. */
const COLUMNS: AnswerColumn[] = [
  ...REVIEW_PRESETS.map((preset, i) => ({
    id: `p${i}`,
    presetKey: preset.key,
    question: null,
    answerType: preset.answerType,
  })),
  {
    id: 'yn',
    presetKey: null,
    question: 'May the Client terminate for convenience?',
    answerType: 'yes_no',
  },
  {
    id: 'yn2',
    presetKey: null,
    question: 'Does the agreement renew automatically?',
    answerType: 'yes_no',
  },
  ...ANSWER_TYPES.filter((type) => type !== 'yes_no').map((answerType) => ({
    id: `c-${answerType}`,
    presetKey: null,
    question: 'What fees are payable and when does the term end after notice?',
    answerType,
  })),
]

/** Contract sentences the generator strings together, with noise between them. */
const SENTENCES = [
  'This Supply Agreement is entered into as of January 5, 2022 by and between Acme Corp., a Delaware corporation ("Supplier"), and Beta Ltd ("Buyer").',
  'The initial term is three (3) years and renews automatically for successive one (1) year periods unless either party gives sixty (60) days notice.',
  'Buyer shall pay Supplier USD 250,000 within thirty (30) days of invoice.',
  'Either party may terminate this Agreement for convenience upon ninety (90) days written notice.',
  'This Agreement shall be governed by the laws of the State of New York.',
  'Neither party may assign this Agreement without the prior written consent of the other party.',
  "IN NO EVENT SHALL EITHER PARTY'S LIABILITY EXCEED THE FEES PAID IN THE PRIOR TWELVE MONTHS.",
  'Supplier shall not, during the term, sell competing products in the Territory.',
  'The Buyer may audit the Supplier’s records once per year on 30 days notice.',
  'Fees: (a) set-up fee of $10,000; (b) monthly fee of €2,500; and (c) travel at cost.',
]

const documentText = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...SENTENCES) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
      { weight: 1, arbitrary: fc.constantFrom('\n\n', '\r\n', '  ', '\t', '1. ', 'ARTICLE 2\n') },
    ),
    { minLength: 1, maxLength: 25 },
  )
  .map((parts) => parts.join(' '))

describe('answering a document offline', () => {
  it("cites, in every answered cell, only text equal to the document's slice (any document)", () => {
    fc.assert(
      fc.property(documentText, (content) => {
        const analysis = analyzeLocal(content, 'full')
        const outcomes = answerDocument({ id: 'd', title: 'Random', content }, analysis, COLUMNS)
        expect(outcomes.size).toBe(COLUMNS.length)
        for (const outcome of outcomes.values()) {
          if (outcome.state !== 'answered') continue
          expect(outcome.citations.length).toBeGreaterThan(0)
          for (const c of outcome.citations) expect(content.slice(c.start, c.end)).toBe(c.text)
        }
      }),
      { numRuns: 40 },
    )
  })

  it('answers the sample contract’s key terms, clauses and a yes/no question with typed values', () => {
    const analysis = analyzeLocal(SAMPLE_CONTRACT, 'full')
    const outcomes = answerDocument(
      { id: 'd', title: 'Northwind MSA', content: SAMPLE_CONTRACT },
      analysis,
      COLUMNS,
    )
    const byKey = (key: string) => outcomes.get(COLUMNS.find((c) => c.presetKey === key)?.id ?? '')
    expect(byKey('term:parties')).toMatchObject({
      state: 'answered',
      answer: { type: 'party', names: expect.arrayContaining(['Northwind Analytics, Inc.']) },
    })
    expect(byKey('term:agreementDate')).toMatchObject({
      state: 'answered',
      answer: { type: 'date', value: '2021-03-03' },
    })
    const answered = [...outcomes.values()].filter((o) => o.state === 'answered')
    expect(answered.length).toBeGreaterThan(5)
  })

  it('marks unverified, never answered, a cell whose analysis was of another text', () => {
    const analysis = analyzeLocal(SAMPLE_CONTRACT, 'full')
    // The same contract after its text changed in front (OCR replaced it, say): every span moved.
    const changed = `Recognised page header.\n${SAMPLE_CONTRACT}`
    expect(analysisOfText(changed, analysis)).toBe(false)
    expect(analysisOfText(SAMPLE_CONTRACT, analysis)).toBe(true)
    const outcomes = answerDocument(
      { id: 'd', title: 'Moved', content: changed },
      analysis,
      COLUMNS,
    )
    const clauseCells = COLUMNS.filter((c) => c.presetKey?.startsWith('clause:')).map((c) =>
      outcomes.get(c.id),
    )
    expect(clauseCells.some((o) => o?.state === 'unverified')).toBe(true)
    expect(clauseCells.some((o) => o?.state === 'answered')).toBe(false)
  })

  it('turns an answer citing text the document does not hold into unverified', () => {
    const outcome = checked('The Supplier shall deliver.', {
      state: 'answered',
      answer: { type: 'text', value: 'deliver' },
      citations: [{ start: 4, end: 12, text: 'Customer' }],
    })
    expect(outcome).toMatchObject({ state: 'unverified' })
    expect(
      checked('abc', { state: 'answered', answer: { type: 'text', value: 'x' }, citations: [] }),
    ).toMatchObject({ state: 'unverified' })
  })

  it('normalises periods to months and amounts to an ISO currency', () => {
    expect(durationIn('sixty (60) days')).toMatchObject({ months: 2 })
    expect(durationIn('one (1) year')).toMatchObject({ months: 12 })
    expect(durationIn('18 months')).toMatchObject({ months: 18 })
    expect(moneyIn('a fee of $1,500,000 payable')).toMatchObject({
      amount: 1_500_000,
      currency: 'USD',
    })
    expect(moneyIn('EUR 2 million')).toMatchObject({ amount: 2_000_000, currency: 'EUR' })
    expect(moneyIn('10,000 pounds')).toMatchObject({ amount: 10_000, currency: 'GBP' })
    expect(moneyIn('no money here')).toBeNull()
  })

  it('cuts a long answer between characters, never inside an emoji', () => {
    for (const lead of ['', 'a']) {
      for (const text of [
        `${lead}${'😀'.repeat(1200)}`,
        `${'word '.repeat(150)}${lead}${'😀'.repeat(1000)}`,
      ]) {
        const cut = answerText(text)
        expect(cut.length).toBeLessThanOrEqual(2000)
        expect(cut.endsWith('…')).toBe(true)
        expect(isWellFormed(cut)).toBe(true)
      }
    }
  })

  it('fails, never stores, an answer outside the answer schema: a non-finite amount, a long name', () => {
    const citations = [{ start: 0, end: 3, text: 'Fee' }]
    const money = checked('Fee', {
      state: 'answered',
      answer: { type: 'money', amount: Infinity, currency: 'USD' },
      citations,
    })
    expect(money).toMatchObject({ state: 'failed', reason: expect.stringMatching(/out of range/) })
    const party = checked('Fee', {
      state: 'answered',
      answer: { type: 'party', names: ['N'.repeat(301)] },
      citations,
    })
    expect(party).toMatchObject({ state: 'failed' })
  })

  it('cuts an engine’s long party name to the answer’s limit instead of failing the cell', () => {
    const analysis = analyzeLocal(SAMPLE_CONTRACT, 'full')
    analysis.keyTerms.parties[0]!.name = `${'Northwind Analytics, Inc., a Delaware corporation '.repeat(8)}😀`
    const column: AnswerColumn = {
      id: 'p',
      presetKey: 'term:parties',
      question: null,
      answerType: 'party',
    }
    const outcome = answerDocument({ id: 'd', title: 'T', content: SAMPLE_CONTRACT }, analysis, [
      column,
    ]).get('p')
    expect(outcome?.state).toBe('answered')
    const names =
      outcome?.state === 'answered' && outcome.answer.type === 'party' ? outcome.answer.names : []
    expect(names[0]!.length).toBeLessThanOrEqual(300)
    expect(names[0]).toMatch(/^Northwind Analytics, Inc\./)
  })
})

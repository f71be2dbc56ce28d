/**
 * The playbook check (decision 0153) on contracts written here, analysed by the local engine:
 * each verdict (compliant, fallback N, deviation, missing), the typed rules, citations from the
 * analysis that are passages of the contract, and the suggested redline.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeLocal } from '../ai/analyzer/local/analyze-local'
import { SAMPLE_CONTRACT } from '../test/sample-files'
import { checkPlaybook, evidenceOf, type PositionResult } from './check-playbook'
import { PlaybookDocument, playbookJsonSchema, Positions, type Position } from './positions'
import { feeMultiple } from './rules'
import { suggestedText } from './suggested-text'

function check(content: string, positions: unknown[]) {
  const analysis = analyzeLocal(content, 'full')
  return checkPlaybook(Positions.parse(positions), { content, analysis })
}

function byId(results: PositionResult[], id: string): PositionResult {
  const found = results.find((r) => r.positionId === id)
  if (!found) throw new Error(`no result for ${id}`)
  return found
}

const law = (id: string, preferred: string[], fallback: string[]): Partial<Position> => ({
  id,
  clauseType: 'Governing Law',
  title: 'Governing law',
  severity: 'medium',
  preferred: {
    language: 'The laws of England and Wales govern this Agreement.',
    rules: [{ kind: 'governing_law_in', laws: preferred }],
  },
  fallbacks: [
    {
      language: 'The laws of the State of New York govern this Agreement.',
      rules: [{ kind: 'governing_law_in', laws: fallback }],
    },
  ],
})

describe('checkPlaybook', () => {
  it('reads compliant, fallback N, deviation and missing, citing passages of the contract', () => {
    const { results, counts } = check(SAMPLE_CONTRACT, [
      law('law-preferred', ['New York'], ['Delaware']),
      law('law-fallback', ['England'], ['New York']),
      law('law-deviation', ['England'], ['Delaware']),
      {
        id: 'escrow',
        clauseType: 'Source Code Escrow',
        title: 'Source code escrow',
        severity: 'high',
        preferred: { language: 'The Supplier shall deposit the source code with an escrow agent.' },
        guidance: 'Ask for escrow when the software is critical.',
      },
    ])
    expect(byId(results, 'law-preferred')).toMatchObject({ verdict: 'compliant', redline: null })
    expect(byId(results, 'law-fallback')).toMatchObject({ verdict: 'fallback', fallbackRank: 1 })
    const deviation = byId(results, 'law-deviation')
    expect(deviation.verdict).toBe('deviation')
    expect(deviation.decision).toMatchObject({ by: 'rules', stance: { kind: 'preferred' } })
    expect(deviation.redline).toMatchObject({
      language: 'The laws of England and Wales govern this Agreement.',
      fallbackLanguage: 'The laws of the State of New York govern this Agreement.',
    })
    expect(byId(results, 'escrow')).toMatchObject({
      verdict: 'missing',
      citation: null,
      redline: { replaces: null },
      guidance: 'Ask for escrow when the software is critical.',
    })
    expect(counts).toEqual({ compliant: 1, fallback: 1, deviation: 1, missing: 1 })
    for (const r of results) {
      if (!r.citation) continue
      expect(SAMPLE_CONTRACT.slice(r.citation.start, r.citation.end)).toBe(r.citation.text)
      expect(r.citation.text).toMatch(/New York/)
    }
  })

  it('decides a liability cap by its multiple of the fees', () => {
    const contract = `SUPPLY AGREEMENT

This Supply Agreement is made between Acme Parts Ltd ("Supplier") and Globex Retail plc ("Customer").

1. Supply. Supplier shall supply the Products ordered by Customer from time to time.

2. Limitation of Liability. The aggregate liability of each party under this Agreement shall not exceed the fees paid or payable by Customer in the twelve (12) months preceding the claim.

3. Assignment. Supplier may freely assign this Agreement to any third party.
`
    const cap = (multiple: number) => ({
      language: `Cap at ${multiple} × fees.`,
      rules: [{ kind: 'cap_at_least_fees', multiple }],
    })
    const { results } = check(contract, [
      {
        id: 'cap',
        clauseType: 'liability',
        title: 'Cap',
        severity: 'high',
        preferred: cap(2),
        fallbacks: [cap(1.5), cap(1)],
      },
      {
        id: 'assign',
        clauseType: 'assignment',
        title: 'Assignment',
        severity: 'medium',
        preferred: {
          language: 'Neither party may assign without consent.',
          rules: [{ kind: 'consent_to_assign' }],
        },
      },
    ])
    const capResult = byId(results, 'cap')
    expect(capResult).toMatchObject({ verdict: 'fallback', fallbackRank: 2 })
    expect(capResult.citation?.text).toContain('shall not exceed the fees paid')
    expect(capResult.redline).toMatchObject({
      language: 'Cap at 2 × fees.',
      fallbackLanguage: 'Cap at 1.5 × fees.',
      replaces: { start: capResult.citation!.start, end: capResult.citation!.end },
    })
    const assign = byId(results, 'assign')
    expect(assign.verdict).toBe('deviation')
    expect(assign.citation?.text).toContain('freely assign')
    expect(assign.explanation).toContain('may assign freely')
  })

  it("takes the deal sheet's cap as a cap clause the detector did not tag", () => {
    const content = `SUPPLY AGREEMENT

This Supply Agreement is made between Acme Parts Ltd ("Supplier") and Globex Retail plc ("Customer").

9. Limitation of Liability. The aggregate liability of each party under this Agreement shall not exceed two (2) times the fees paid by Customer in the twelve (12) months preceding the claim.
`
    const analysis = analyzeLocal(content, 'full')
    const untagged = {
      ...analysis,
      clauses: analysis.clauses.filter((c) => c.category !== 'Cap On Liability'),
    }
    const evidence = evidenceOf('Cap On Liability', { content, analysis: untagged })
    expect(evidence.map((p) => p.text).join(' ')).toContain(
      'shall not exceed two (2) times the fees',
    )
  })

  it('reads a term, a notice period and sample language', () => {
    const { results } = check(SAMPLE_CONTRACT, [
      {
        id: 'term-short',
        clauseType: 'term',
        title: 'Term',
        severity: 'low',
        preferred: { language: '', rules: [{ kind: 'term_at_most_months', months: 6 }] },
        fallbacks: [{ language: '', rules: [{ kind: 'term_at_most_months', months: 12 }] }],
      },
      {
        id: 'notice',
        clauseType: 'Notice Period To Terminate Renewal',
        title: 'Renewal notice',
        severity: 'low',
        preferred: { language: '', rules: [{ kind: 'notice_at_least_days', days: 60 }] },
      },
      {
        id: 'exclusive',
        clauseType: 'Exclusivity',
        title: 'No exclusivity',
        severity: 'high',
        preferred: {
          language: 'Nothing in this Agreement obliges the Client to buy only from the Provider.',
        },
        unacceptable: [
          {
            language:
              'Client shall purchase such services exclusively from Provider and shall not engage any competitor of Provider.',
          },
        ],
      },
    ])
    expect(byId(results, 'term-short')).toMatchObject({ verdict: 'fallback', fallbackRank: 1 })
    expect(byId(results, 'term-short').explanation).toContain('12 months')
    const notice = byId(results, 'notice')
    expect(notice.verdict).toBe('deviation')
    expect(notice.explanation).toContain('30 days')
    const exclusive = byId(results, 'exclusive')
    expect(exclusive).toMatchObject({
      verdict: 'deviation',
      decision: { by: 'language', stance: { kind: 'unacceptable', rank: 1 } },
    })
    expect(exclusive.reading).toMatchObject({ modality: 'must', action: 'purchase' })
  })

  it('never cites a heading', () => {
    const { results } = check(
      'GOVERNING LAW\n\nThe laws of England govern this Agreement and every dispute under it.\n',
      [law('law', ['England'], ['Scotland'])],
    )
    const r = byId(results, 'law')
    expect(r.citation?.text).not.toBe('GOVERNING LAW')
  })
})

describe('the notice rule', () => {
  it('reads the period of notice, not the term or renewal length the same clause states first', () => {
    const contract = `DISTRIBUTION AGREEMENT

This Distribution Agreement is made between Acme Parts Ltd ("Supplier") and Globex Retail plc ("Distributor").

3. Term and Renewal. The term of this Agreement shall begin on the Effective Date and continue for a period of five (5) years. Upon expiration of the Initial Term, this Agreement shall automatically renew for consecutive one (1) year periods, unless terminated by Distributor within sixty (60) days prior to the expiration of the then-current term.
`
    const rule = (days: number) => ({
      id: `notice-${days}`,
      clauseType: 'term',
      title: 'Notice',
      severity: 'low',
      preferred: { language: '', rules: [{ kind: 'notice_at_least_days', days }] },
    })
    const { results } = check(contract, [rule(60), rule(61)])
    expect(byId(results, 'notice-60').verdict).toBe('compliant')
    expect(byId(results, 'notice-61')).toMatchObject({ verdict: 'deviation' })
    expect(byId(results, 'notice-61').explanation).toContain('sixty (60) days')
  })
})

describe('feeMultiple', () => {
  it.each([
    ['shall not exceed two (2) times the fees paid', 2],
    ['limited to 3x the fees payable hereunder', 3],
    ['shall not exceed twice the fees paid', 2],
    ['shall not exceed one hundred fifty percent 150% of the fees', 1.5],
    ['shall not exceed the amounts paid by Customer in the prior year', 1],
    ['shall not exceed $1,000,000', null],
  ])('%s → %s', (text, multiple) => {
    expect(feeMultiple(text)).toBe(multiple)
  })
})

describe('playbook documents', () => {
  it('publishes the JSON Schema the import validates by, kept in playbook.schema.json', () => {
    const file = JSON.parse(
      readFileSync(new URL('./playbook.schema.json', import.meta.url), 'utf8'),
    )
    expect(file).toEqual(playbookJsonSchema())
  })

  it.each(['mutual-nda', 'commercial-supply'])(
    'ships the %s starter as a valid playbook',
    (name) => {
      const json = JSON.parse(
        readFileSync(new URL(`./starters/${name}.json`, import.meta.url), 'utf8'),
      )
      const parsed = PlaybookDocument.safeParse(json)
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
      expect(parsed.data!.positions.length).toBeGreaterThanOrEqual(5)
    },
  )

  it('refuses repeated position ids and unknown clause types', () => {
    const position = {
      id: 'a',
      clauseType: 'Governing Law',
      title: 'A',
      severity: 'low',
      preferred: { language: 'x' },
    }
    expect(Positions.safeParse([position, position]).success).toBe(false)
    expect(Positions.safeParse([{ ...position, clauseType: 'Weather' }]).success).toBe(false)
    expect(Positions.safeParse([position]).success).toBe(true)
  })
})

describe('suggestedText', () => {
  const content = 'A. The cap is one times the fees.\n\nB. New York law governs.\n'
  const cap = content.indexOf('The cap is one times the fees.')
  const law = content.indexOf('New York law governs.')
  const at = (start: number, text: string) => ({ start, end: start + text.length })

  it('replaces cited passages in order, appends missing clauses, and tells a changed document', () => {
    const result = suggestedText(content, [
      {
        title: 'Law',
        language: 'English law governs.',
        replaces: at(law, 'New York law governs.'),
        replacedText: 'New York law governs.',
      },
      {
        title: 'Cap',
        language: 'The cap is twice the fees.',
        replaces: at(cap, 'The cap is one times the fees.'),
        replacedText: 'The cap is one times the fees.',
      },
      { title: 'Escrow', language: 'Source code is escrowed.', replaces: null, replacedText: null },
    ])
    expect(result).toMatchObject({ replaced: 2, appended: 1, skipped: 0, stale: false })
    expect(result.revised).toBe(
      'A. The cap is twice the fees.\n\nB. English law governs.\n\nEscrow. Source code is escrowed.\n',
    )
    const changed = suggestedText(content.replace('New York', 'Texas'), [
      {
        title: 'Law',
        language: 'English law governs.',
        replaces: at(law, 'New York law governs.'),
        replacedText: 'New York law governs.',
      },
    ])
    expect(changed.stale).toBe(true)
  })
})

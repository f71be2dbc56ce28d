import { describe, expect, it } from 'vitest'
import { AnalysisResult } from '../types'
import {
  BALANCED_SUPPLY_AGREEMENT,
  RISKY_SERVICES_AGREEMENT,
  UNICODE_CRLF_AGREEMENT,
  longContract,
} from '../../../test/test-contracts'
import { analyzeLocal } from './analyze-local'

const DOCUMENTS = {
  risky: RISKY_SERVICES_AGREEMENT,
  balanced: BALANCED_SUPPLY_AGREEMENT,
  'unicode and CRLF': UNICODE_CRLF_AGREEMENT,
  long: longContract(60_000),
  empty: '',
}

describe('analyzeLocal', () => {
  it.each(Object.entries(DOCUMENTS))(
    'quotes every span exactly in the %s document',
    (_, content) => {
      const result = AnalysisResult.parse(analyzeLocal(content, 'full'))
      const quoted = [...result.summary.sentences, ...result.clauses]
      for (const span of quoted) expect(content.slice(span.start, span.end)).toBe(span.text)
      for (const party of result.keyTerms.parties)
        expect(content.slice(party.start, party.end)).toBe(party.name)
      const { parties: _parties, ...dated } = result.keyTerms
      const terms = Object.values(dated).filter((term) => term !== null)
      for (const span of [...terms, ...result.risks]) {
        expect(span.start).toBeLessThanOrEqual(span.end)
        expect(span.end).toBeLessThanOrEqual(content.length)
      }
    },
  )

  it('reads key terms through CRLF line endings and non-ASCII names', () => {
    const { keyTerms } = analyzeLocal(UNICODE_CRLF_AGREEMENT, 'clauses')
    expect(keyTerms.parties.map((p) => p.name)).toEqual([
      'Société Générale Logiciels S.A.',
      'Ōmura Kōgyō K.K.',
    ])
    expect(keyTerms.governingLaw?.value).toBe('Ontario')
    expect(keyTerms.agreementDate?.value).toBe('2020-01-05')
    expect(keyTerms.noticePeriod?.value).toBe('90 days')
  })

  it('returns only the parts the kind asks for', () => {
    const summary = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'summarize')
    expect(summary.summary.sentences.length).toBeGreaterThan(0)
    expect([summary.clauses, summary.risks, summary.keyTerms.parties]).toEqual([[], [], []])
    expect(summary.keyTerms.governingLaw).toBeNull()

    const clauses = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'clauses')
    expect(clauses.summary).toEqual({ text: '', sentences: [] })
    expect(clauses.clauses.length).toBeGreaterThan(0)
    expect(clauses.keyTerms.governingLaw?.value).toBe('New York')
    expect(clauses.risks).toEqual([])

    const risks = analyzeLocal(RISKY_SERVICES_AGREEMENT, 'risks')
    expect(risks.risks.length).toBeGreaterThan(0)
    expect([risks.clauses, risks.keyTerms.parties, risks.summary.sentences]).toEqual([[], [], []])
  })

  it('reports each stage it runs, in order, with rising fractions', () => {
    const full: [number, string][] = []
    analyzeLocal(RISKY_SERVICES_AGREEMENT, 'full', { onProgress: (f, m) => full.push([f, m]) })
    expect(full.map(([, message]) => message)).toEqual([
      'Splitting the text into sentences',
      'Detecting clauses',
      'Reading parties, dates and terms',
      'Writing the summary',
      'Assessing risks',
    ])
    const fractions = full.map(([fraction]) => fraction)
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b))
    expect(fractions.every((f) => f >= 0 && f < 1)).toBe(true)
    const clausesOnly: string[] = []
    analyzeLocal(RISKY_SERVICES_AGREEMENT, 'clauses', { onProgress: (_, m) => clausesOnly.push(m) })
    expect(clausesOnly).not.toContain('Writing the summary')
    expect(clausesOnly).not.toContain('Assessing risks')
  })

  it('names the engine and model and measures its duration', () => {
    const result = analyzeLocal(BALANCED_SUPPLY_AGREEMENT, 'full')
    expect(result).toMatchObject({ engine: 'local', model: 'lexdesk-local-8' })
    expect(result.durationMs).toBeGreaterThan(0)
  })
})

import { describe, expect, it } from 'vitest'
import { groupClausesByCategory, groupRisksBySeverity } from './group-findings'
import type { Clause, Risk } from '../api/types'

const risk = (severity: Risk['severity'], start: number): Risk => ({
  start,
  end: start + 5,
  code: `${severity}-${start}`,
  severity,
  title: `${severity} at ${start}`,
  explanation: '',
})

const clause = (category: string, start: number): Clause => ({
  start,
  end: start + 5,
  text: 'x',
  category,
  confidence: 0.5,
})

describe('groupRisksBySeverity', () => {
  it('orders groups high, medium, low, omits empty ones and keeps document order inside', () => {
    const groups = groupRisksBySeverity([risk('low', 50), risk('high', 40), risk('high', 10)])
    expect(groups.map((g) => g.severity)).toEqual(['high', 'low'])
    expect(groups[0]!.risks.map((r) => r.start)).toEqual([10, 40])
  })
})

describe('groupClausesByCategory', () => {
  it('orders categories by their first clause in the document', () => {
    const groups = groupClausesByCategory([clause('B', 30), clause('A', 20), clause('B', 5)])
    expect(groups.map((g) => [g.category, g.clauses.map((c) => c.start)])).toEqual([
      ['B', [5, 30]],
      ['A', [20]],
    ])
  })
})

import { describe, expect, it } from 'vitest'
import type { Risk } from '../server/ai/analyzer/types'
import { riskBearerShare, riskScores, riskTypeRows, scoreRisks } from './risk-scoring'

const risk = (code: string, binds?: string[]): Risk => ({
  code,
  severity: 'medium',
  title: code,
  explanation: '',
  start: 0,
  end: 1,
  ...(binds ? { binds } : {}),
})

describe('risk scoring against CUAD labels', () => {
  it('counts a raised risk as a hit only when its label agrees, and a missing one as a miss', () => {
    const scores = riskScores()
    // Labelled liquidated damages, raised: tp. Labelled minimum commitment, not raised: fn.
    scoreRisks(scores, (c) => c === 'Liquidated Damages' || c === 'Minimum Commitment', [
      risk('liquidated-damages', ['A']),
    ])
    // No labels at all; a liquidated-damages risk is a false positive, and liability-missing is
    // right because no cap is labelled.
    scoreRisks(scores, () => false, [
      risk('liquidated-damages'),
      risk('liability-missing', ['A', 'B']),
    ])
    const rows = new Map(riskTypeRows(scores).map((row) => [row.code, row]))
    expect(rows.get('liquidated-damages')).toMatchObject({
      tp: 1,
      fp: 1,
      fn: 0,
      labelled: 1,
      precision: 0.5,
      recall: 1,
    })
    expect(rows.get('minimum-commitment')).toMatchObject({ tp: 0, fp: 0, fn: 1, recall: 0 })
    expect(rows.get('liability-missing')).toMatchObject({ tp: 1, fn: 1, labelled: 2 })
    expect(riskBearerShare(scores)).toBeCloseTo(2 / 3)
  })

  it('scores a one-sided termination for convenience as a termination for convenience', () => {
    const scores = riskScores()
    scoreRisks(scores, (c) => c === 'Termination For Convenience', [
      risk('termination-for-convenience-unilateral', ['A']),
    ])
    const row = riskTypeRows(scores).find((r) => r.code === 'termination-for-convenience')
    expect(row).toMatchObject({ tp: 1, fp: 0 })
  })

  it('scores an exit fee as liquidated damages, which in CUAD covers termination fees', () => {
    const scores = riskScores()
    scoreRisks(scores, (c) => c === 'Liquidated Damages', [risk('severance-exit-fee', ['A'])])
    const row = riskTypeRows(scores).find((r) => r.code === 'liquidated-damages')
    expect(row).toMatchObject({ tp: 1, fp: 0, fn: 0 })
  })
})

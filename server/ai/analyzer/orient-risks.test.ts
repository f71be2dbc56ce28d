import { describe, expect, it } from 'vitest'
import { EVERY_PARTY } from './local/risk-orientation'
import { orientRisks } from './orient-risks'
import type { Party, Risk } from './types'

const parties: Party[] = [
  { name: 'Acme Corp', start: 0, end: 9 },
  { name: 'Beta LLC', start: 20, end: 28 },
]
const risk = (code: string, binds: string[] | undefined, extra: Partial<Risk> = {}): Risk => ({
  code,
  start: 40,
  end: 90,
  severity: 'medium',
  title: code,
  explanation: 'Why it matters.',
  ...(binds ? { binds } : {}),
  severityIfBindsUs: 'high',
  severityIfBindsThem: 'low',
  ...extra,
})
const nonCompete = risk('non-compete', ['Beta LLC'])
const assignment = risk('change-of-control', ['Acme Corp', 'Beta LLC'])

describe('orientRisks', () => {
  it('names the bearing party, or mutual, without a side', () => {
    const [own, both, none] = orientRisks(
      [nonCompete, assignment, risk('x', undefined)],
      parties,
      null,
    )
    expect(own).toMatchObject({ severity: 'medium', whose: { label: 'Risk for Beta LLC' } })
    expect(own?.whose?.reason).toContain('binds Beta LLC')
    expect(both?.whose?.label).toBe('Mutual')
    expect(none?.whose?.label).toBe('Mutual')
  })

  it('calls a risk binding every party of a contract whose parties are unknown mutual', () => {
    const [unknown] = orientRisks([risk('liability-missing', [EVERY_PARTY])], [], null)
    expect(unknown?.whose).toEqual({
      label: 'Mutual',
      reason: 'The cited clause names no one party: it concerns both sides.',
    })
  })

  it('raises a risk binding our client and lowers one binding only the other side', () => {
    const beta = parties[1] ?? null
    expect(orientRisks([nonCompete], parties, beta)[0]).toMatchObject({
      orientation: 'binds-us',
      severity: 'high',
      whose: { label: 'Our risk' },
    })
    const [theirs] = orientRisks([nonCompete], parties, parties[0] ?? null)
    expect(theirs).toMatchObject({ orientation: 'binds-them', severity: 'low' })
    expect(theirs?.whose?.reason).toMatch(/binds Beta LLC, not Acme Corp/)
    expect(orientRisks([assignment], parties, beta)[0]).toMatchObject({
      orientation: 'mutual',
      severity: 'medium',
    })
  })

  it('drops an orientation stored by an older analysis when no side is chosen', () => {
    const stored = risk('non-compete', ['Beta LLC'], { orientation: 'binds-us' })
    expect(orientRisks([stored], parties, null)[0]?.orientation).toBeUndefined()
  })
})

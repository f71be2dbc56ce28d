/** The retention rule as tables: a policy's verdict on an item, and which policy governs it. */
import { describe, expect, it } from 'vitest'
import { decideFate } from './legal-hold'
import { governingPolicy, retentionVerdict } from './retention-rule'

const now = new Date('2026-12-07T12:00:00Z')
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000)

describe('retentionVerdict', () => {
  it.each([
    { lastChanged: daysAgo(31), keepDays: 30, verdict: 'due' },
    { lastChanged: daysAgo(30), keepDays: 30, verdict: 'retain' },
    { lastChanged: daysAgo(29), keepDays: 30, verdict: 'retain' },
    { lastChanged: daysAgo(2), keepDays: 1, verdict: 'due' },
    { lastChanged: daysAgo(100_000), keepDays: null, verdict: 'retain' },
    { lastChanged: daysAgo(36_501), keepDays: 36_500, verdict: 'due' },
  ] as const)(
    '$keepDays days, changed $lastChanged: $verdict',
    ({ lastChanged, keepDays, verdict }) => {
      expect(retentionVerdict(lastChanged, keepDays, now)).toBe(verdict)
    },
  )
})

describe('governingPolicy', () => {
  const policies = [
    { id: 'org-docs', appId: null, kind: 'documents' },
    { id: 'app-a-docs', appId: 'a', kind: 'documents' },
    { id: 'org-recs', appId: null, kind: 'recordings' },
    { id: 'app-b-recs', appId: 'b', kind: 'recordings' },
  ]
  it.each([
    { kind: 'documents', appId: 'a', policy: 'app-a-docs' },
    { kind: 'documents', appId: 'b', policy: 'org-docs' },
    { kind: 'documents', appId: null, policy: 'org-docs' },
    { kind: 'recordings', appId: 'b', policy: 'app-b-recs' },
    { kind: 'recordings', appId: 'a', policy: 'org-recs' },
    { kind: 'conversations', appId: 'a', policy: undefined },
  ] as const)('$kind in app $appId: $policy', ({ kind, appId, policy }) => {
    expect(governingPolicy(policies, kind, appId)?.id).toBe(policy)
  })
})

describe('hold beats retain beats delete, with a policy verdict', () => {
  it('keeps a held due item, keeps a retained one, deletes a due one', () => {
    const item = { kind: 'document' as const, id: 'd1', appId: 'a', createdBy: 'u1' }
    const due = retentionVerdict(daysAgo(40), 30, now)
    expect(decideFate(item, [{ targetKind: 'app', targetId: 'a' }], due)).toMatchObject({
      fate: 'keep',
      because: 'legal_hold',
    })
    expect(decideFate(item, [], retentionVerdict(daysAgo(40), null, now))).toEqual({
      fate: 'keep',
      because: 'retention',
    })
    expect(decideFate(item, [], due)).toEqual({ fate: 'delete', because: 'retention' })
  })
})

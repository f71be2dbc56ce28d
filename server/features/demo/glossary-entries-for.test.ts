import { describe, expect, it } from 'vitest'
import { CONTRACT_GLOSSARY } from './contract-glossary'
import { glossaryEntriesFor } from './glossary-entries-for'

const ids = (question: string) => glossaryEntriesFor(question).map((entry) => entry.id)

describe('glossaryEntriesFor', () => {
  it.each([
    ['What is an NDA?', ['nda']],
    ['What does a non-disclosure agreement do?', ['nda']],
    ['Explain indemnification', ['indemnity']],
    ['What is a cap on liability?', ['limitation-of-liability']],
    ['Which law governs the contract?', ['governing-law']],
    ['What is a third party beneficiary?', ['third-party-beneficiary']],
    ['Can they terminate for convenience?', ['termination-for-convenience']],
    ["What's a most favoured nation clause?", ['most-favoured-nation']],
    ['What are non-compete clauses?', ['non-compete']],
  ])('finds the entry %j names', (question, expected) => {
    expect(ids(question)).toEqual(expected)
  })

  it.each(['What makes a contract binding?', 'Who won the football?', 'Is this agreement signed?'])(
    'finds no entry for %j, which names no glossary term',
    (question) => {
      expect(ids(question)).toEqual([])
    },
  )

  it('gives every entry a unique id, a title, terms and an explanation', () => {
    expect(new Set(CONTRACT_GLOSSARY.map((e) => e.id)).size).toBe(CONTRACT_GLOSSARY.length)
    for (const entry of CONTRACT_GLOSSARY) {
      expect(entry.terms.length).toBeGreaterThan(0)
      expect(entry.text.length).toBeGreaterThan(80)
      // Each entry is found by its own first term.
      expect(ids(`What is ${entry.terms[0]}?`)).toContain(entry.id)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { rankByStructure } from './rank-by-structure'

const hit = (content: string, score: number) => ({ content, score })

describe('rankByStructure', () => {
  it('moves captions, headings and page footers below the clauses, keeping each group in order', () => {
    const ranked = rankByStructure([
      hit('9. Governing Law', 0.05),
      hit('This Agreement shall be governed by the laws of the State of New York.', 0.04),
      hit('Page 3 of 7', 0.035),
      hit('GOVERNING LAW', 0.03),
      hit('The Customer shall pay each invoice within sixty days.', 0.02),
    ])
    expect(ranked.map((h) => h.content)).toEqual([
      'This Agreement shall be governed by the laws of the State of New York.',
      'The Customer shall pay each invoice within sixty days.',
      '9. Governing Law',
      'Page 3 of 7',
      'GOVERNING LAW',
    ])
  })

  it("caps a moved passage's score at the last clause's, so scores still fall down the list", () => {
    const scores = rankByStructure([
      hit('9. Governing Law', 0.05),
      hit('This Agreement shall be governed by the laws of New York.', 0.04),
      hit('GOVERNING LAW', 0.01),
    ]).map((h) => h.score)
    expect(scores).toEqual([0.04, 0.04, 0.01])
  })

  it('keeps definitions and recitals among the clauses (they can answer a question)', () => {
    const ranked = rankByStructure([
      hit('"Confidential Information" means all non-public information.', 0.05),
      hit('WHEREAS, the parties wish to evaluate a business relationship.', 0.04),
      hit('The Recipient shall keep it secret.', 0.03),
    ])
    expect(ranked.map((h) => h.score)).toEqual([0.05, 0.04, 0.03])
  })

  it('keeps short passages in sentence case among the clauses: list items, fragments', () => {
    const ranked = rankByStructure([
      hit('(a) to its employees who need to know it;', 0.05),
      hit('Records of all sales.', 0.04),
      hit('The Recipient shall keep it secret.', 0.03),
    ])
    expect(ranked.map((h) => h.score)).toEqual([0.05, 0.04, 0.03])
  })
})

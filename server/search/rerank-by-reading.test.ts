import { describe, expect, it } from 'vitest'
import { rerankByReading } from './rerank-by-reading'

const hit = (content: string, score: number) => ({ content, score })

describe('reranking search hits by their reading (decision 0130)', () => {
  it('puts the clause stating the asked act above a passage fused higher that only shares the topic (evidence outside the top five)', () => {
    const hits = [
      hit(
        'The Discloser makes no warranty as to the accuracy of the Confidential Information it furnishes.',
        0.032,
      ),
      hit('Each party shall bear its own costs in connection with this Agreement.', 0.031),
      hit(
        'Upon termination of this Agreement the Recipient shall return or destroy all Confidential Information.',
        0.03,
      ),
    ]
    const ranked = rerankByReading(
      'Shall the Receiving Party return Confidential Information upon termination?',
      hits,
    )
    expect(ranked[0]?.content).toBe(hits[2]!.content)
    // Scores still fall down the list (each hit takes its new place's score).
    expect(ranked.map((h) => h.score)).toEqual([0.032, 0.031, 0.03])
  })

  it('keeps one hit, and no hits, as they are', () => {
    expect(rerankByReading('Is it governed by English law?', [])).toEqual([])
    expect(rerankByReading('Is it governed by English law?', [hit('x', 1)])).toEqual([hit('x', 1)])
  })
})

describe('a query whose words no passage holds', () => {
  it('keeps the fused order (the vector half found it; weak features alone must not reorder)', () => {
    const hits = [
      hit('The courts of England shall have exclusive jurisdiction over any dispute.', 0.032),
      hit('This Agreement applies to all Confidential Information.', 0.031),
      hit('Notices shall be given in writing.', 0.03),
    ]
    expect(rerankByReading('Where would a lawsuit be heard, and whose rules apply?', hits)).toEqual(
      hits,
    )
  })
})

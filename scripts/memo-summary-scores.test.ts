import { describe, expect, it } from 'vitest'
import { addScores, memoScores } from './memo-summary-scores'

const point = (text: string) => ({ text, segment: 0, start: 0 })

describe('memoScores', () => {
  it('counts copied and cut-out lines and the compression against the transcript', () => {
    const transcript = 'We met the client today. The landlord wants more rent. Nothing else.'
    const scores = memoScores(transcript, {
      keyPoints: [point('the landlord wants more rent'), point('Landlord wants more rent')],
      decisions: [point('Client met')],
      actionItems: [],
      names: [{ name: 'Anna', segment: 0, start: 0 }],
    })
    expect(scores).toEqual({
      lines: 3,
      copies: 1,
      contained: 2,
      summaryChars: 'the landlord wants more rent Landlord wants more rent Client met'.length,
      transcriptChars: transcript.length,
    })
    expect(addScores([scores, scores])).toMatchObject({ lines: 6, copies: 2, contained: 4 })
  })
})

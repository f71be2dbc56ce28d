import { describe, expect, it } from 'vitest'
import { answerLocally, CANNOT_ANSWER } from './answer-question'

describe('answerLocally', () => {
  it('answers from the matching explanation and cites it', () => {
    const answer = answerLocally('What happens if my landlord keeps my security deposit?')
    expect(answer).toMatchObject({ answered: true, sources: [{ id: 'lease' }] })
    expect(answer.answer).toContain('Leases and tenants')
  })

  it('prefers phrases over single words', () => {
    expect(answerLocally('Who can act under a power of attorney?').sources[0]?.id).toBe(
      'power-of-attorney',
    )
  })

  it('says so when it cannot answer', () => {
    expect(answerLocally('What is the weather like on Mars?')).toEqual({
      answer: CANNOT_ANSWER,
      answered: false,
      sources: [],
      engine: 'local',
    })
  })
})

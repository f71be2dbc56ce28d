import { afterEach, describe, expect, it } from 'vitest'
import {
  fakeStructuredOpenAI,
  type FakeReply,
  type FakeStructuredOpenAI,
} from '../../test/fake-structured-openai'
import { CANNOT_ANSWER } from './answer-question'
import { LEGAL_EXPLANATIONS } from './legal-explanations'
import { OpenAIAnswerer } from './openai-answerer'

const LEASE = LEGAL_EXPLANATIONS.find((e) => e.id === 'lease')
const LEASE_SENTENCE = `${LEASE?.text.split('. ')[0] ?? ''}.`

let fake: FakeStructuredOpenAI | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function answererFor(replies: FakeReply[]) {
  fake = await fakeStructuredOpenAI(replies)
  return {
    answerer: new OpenAIAnswerer({ baseURL: fake.baseURL, model: 'gpt-test' }),
    server: fake,
  }
}

describe('OpenAIAnswerer', () => {
  it('answers through structured output and reports the sources whose quotes it verified', async () => {
    const { answerer, server } = await answererFor([
      JSON.stringify({
        answered: true,
        answer: 'Your landlord must usually return the deposit.',
        sources: [
          { title: 'Leases and tenants', quote: LEASE_SENTENCE },
          { title: 'What makes a contract binding', quote: 'A deposit is always returned.' },
        ],
      }),
    ])
    const answer = await answerer.answer('Can my landlord keep my deposit?')
    expect(answer).toEqual({
      answer: 'Your landlord must usually return the deposit.',
      answered: true,
      engine: 'openai',
      sources: [{ id: 'lease', title: 'Leases and tenants' }],
      droppedUnverified: 1,
    })
    const request = server.requests[0]
    expect(request?.model).toBe('gpt-test')
    expect(request?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'demo_answer', strict: true },
    })
    expect(request?.messages[0]?.content).toContain('Source "Leases and tenants"')
    expect(request?.messages[1]).toEqual({
      role: 'user',
      content: 'Can my landlord keep my deposit?',
    })
  })

  it('does not give an answer whose every quote is missing from its source', async () => {
    const { answerer } = await answererFor([
      JSON.stringify({
        answered: true,
        answer: 'You can always break a lease.',
        sources: [{ title: 'Leases and tenants', quote: 'Tenants may always leave at will.' }],
      }),
    ])
    expect(await answerer.answer('Can I break my lease?')).toEqual({
      answer: CANNOT_ANSWER,
      answered: false,
      sources: [],
      engine: 'openai',
      droppedUnverified: 1,
    })
  })

  it('rejects when the provider fails or answers another shape', async () => {
    const failing = await answererFor([500])
    await expect(failing.answerer.answer('Hello?')).rejects.toThrow()
    await fake?.close()
    const malformed = await answererFor([JSON.stringify({ answered: 'yes' })])
    await expect(malformed.answerer.answer('Hello?')).rejects.toThrow(/expected shape at answered/)
  })
})

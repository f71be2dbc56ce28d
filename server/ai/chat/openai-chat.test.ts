import { afterEach, describe, expect, it } from 'vitest'
import {
  fakeStructuredOpenAI,
  type FakeReply,
  type FakeStructuredOpenAI,
} from '../../test/fake-structured-openai'
import { OpenAIChat } from './openai-chat'
import type { ChatPassage } from './types'

const PASSAGES: ChatPassage[] = [
  {
    n: 1,
    title: 'Mutual NDA',
    content:
      'The Receiving Party shall not, without the prior written consent of the Disclosing Party,\ndisclose Confidential Information to any third party.',
  },
  {
    n: 2,
    title: 'Mutual NDA',
    content:
      'Nothing in this Agreement prevents disclosure required by law. Upon request, the Receiving Party shall return all copies.',
  },
]

const QUESTION = 'May the Receiving Party disclose Confidential Information to third parties?'

let fake: FakeStructuredOpenAI | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

async function chatFor(replies: FakeReply[], options: { refusesJsonSchema?: boolean } = {}) {
  fake = await fakeStructuredOpenAI(replies, options)
  return { chat: new OpenAIChat({ baseURL: fake.baseURL, model: 'fake-chat' }), server: fake }
}

async function collect(stream: AsyncIterable<string>): Promise<string> {
  let text = ''
  for await (const piece of stream) text += piece
  return text
}

describe('OpenAIChat yes/no decisions', () => {
  it('decides through strict structured output, citing the deciding sentence verbatim', async () => {
    const { chat, server } = await chatFor([
      JSON.stringify({
        decision: 'no',
        deciding: {
          passage: 1,
          // Reflowed by the model: found with whitespace runs treated as equal.
          quote:
            'The Receiving Party shall not, without the prior written consent of the Disclosing Party, disclose Confidential Information',
        },
        qualifications: [
          { passage: 2, quote: 'Nothing in this Agreement prevents disclosure required by law.' },
          { passage: 2, quote: 'Disclosure to affiliates is always allowed.' },
        ],
      }),
    ])
    const answer = await chat.decide(QUESTION, PASSAGES)
    expect(answer.decision).toBe('no')
    expect(answer.deciding?.passage.n).toBe(1)
    expect(answer.deciding?.text).toContain('Disclosing Party,\ndisclose')
    expect(answer.qualifications.map((q) => q.text)).toEqual([
      'Nothing in this Agreement prevents disclosure required by law.',
    ])
    expect(answer.droppedUnverified).toBe(1)
    const request = server.requests[0]
    expect(request?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'yes_no_decision', strict: true },
    })
    expect(request?.messages[1]?.content).toContain('<passage n="2"')
  })

  it('drops a decision whose quote is not in the passage it names, and says so without a citation', async () => {
    const reply = JSON.stringify({
      decision: 'yes',
      deciding: { passage: 2, quote: 'disclose Confidential Information to any third party' },
      qualifications: [],
    })
    const { chat } = await chatFor([reply, reply])
    const answer = await chat.decide(QUESTION, PASSAGES)
    expect(answer).toEqual({
      decision: 'not-addressed',
      deciding: null,
      qualifications: [],
      droppedUnverified: 1,
    })
    const text = await collect(chat.answer([{ role: 'user', content: QUESTION }], PASSAGES))
    expect(text).toBe(
      'Not addressed in this document. The model’s answer quoted words that are not in the passages, so it was set aside.',
    )
  })

  it('streams a verified yes/no answer in the local engine’s form, with its [n] markers', async () => {
    const { chat } = await chatFor([
      JSON.stringify({
        decision: 'yes',
        deciding: {
          passage: 2,
          quote: 'Upon request, the Receiving Party shall return all copies.',
        },
        qualifications: [],
      }),
    ])
    const text = await collect(
      chat.answer(
        [{ role: 'user', content: 'Must the Receiving Party return copies on request?' }],
        PASSAGES,
      ),
    )
    expect(text).toBe(
      'Yes.\n\nDeciding passage: Mutual NDA: “Upon request, the Receiving Party shall return all copies.” [2]',
    )
  })

  it('falls back to json_object when the server refuses json_schema', async () => {
    const { chat, server } = await chatFor(
      [JSON.stringify({ decision: 'not-addressed', deciding: null, qualifications: [] })],
      { refusesJsonSchema: true },
    )
    const answer = await chat.decide(QUESTION, PASSAGES)
    expect(answer.decision).toBe('not-addressed')
    expect(answer.droppedUnverified).toBe(0)
    expect(server.requests.map((r) => r.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
    ])
    expect(server.requests[1]?.messages[0]?.content).toContain('conforms to this JSON Schema')
  })

  it('rejects a malformed answer with a clear error', async () => {
    const { chat } = await chatFor([
      JSON.stringify({ decision: 'maybe', deciding: null, qualifications: [] }),
    ])
    await expect(chat.decide(QUESTION, PASSAGES)).rejects.toThrow(
      /^the model's JSON did not match the expected shape at decision/,
    )
  })
})

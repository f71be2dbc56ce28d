/**
 * The assistant's answer stream is admitted like every event stream (http/event-streams.ts): past
 * the organisation's cap of open streams it is refused with a 429 problem before the question is
 * stored, so a refused question leaves no conversation behind (issue 29; since decision 0125 the
 * chat's is the API's one event stream).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import type { ChatEngine } from '../../ai/chat/types'
import { conversations } from '../../db/schema'
import { buildTestApp, signedInMember } from '../../test/test-app'

/** A chat engine that holds its answer, and so its stream, open until the test lets it go. */
let letGo: () => void = () => undefined
let answering = false
const held: ChatEngine = {
  id: 'test:held',
  async *answer() {
    answering = true
    await new Promise<void>((resolve) => (letGo = resolve))
    yield 'Thirty days.'
  },
}

/** One stream admitted for an organisation at a time. */
const t = await buildTestApp({
  streams: { perUser: 5, perOrg: 1, keepAliveMs: 15_000 },
  engines: { chat: held },
})
afterAll(() => t.close())

describe('admission of the chat stream', () => {
  it('refuses the chat stream past the cap before anything is stored', async () => {
    const alice = await signedInMember(t, 'Stream Chat Firm')
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${alice.orgId}/chat`,
        headers: alice.headers,
        payload: { messages: [{ role: 'user', content: 'What is the notice period?' }] },
      })
    const stored = () =>
      t.database.db
        .select({ id: conversations.id })
        .from(conversations)
        .where(eq(conversations.orgId, alice.orgId))
    const first = ask()
    await expect.poll(() => answering).toBe(true)
    const before = await stored()
    const res = await ask()
    expect(res.statusCode).toBe(429)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'too_many_streams' })
    expect(await stored()).toEqual(before)
    letGo()
    expect((await first).statusCode).toBe(200)
  })
})

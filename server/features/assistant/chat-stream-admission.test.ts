/**
 * The assistant's answer stream is admitted like every event stream (http/event-streams.ts): past
 * the organisation's cap of open streams it is refused with a 429 problem before the question is
 * stored, so a refused question leaves no conversation behind (issue 29; since decision 0125 the
 * chat's is the API's one event stream).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { conversations } from '../../db/schema'
import { buildTestApp, signedInMember } from '../../test/test-app'

/** No stream admitted for an organisation: every chat is refused at admission. */
const t = await buildTestApp({ streams: { perUser: 1, perOrg: 0, keepAliveMs: 15_000 } })
afterAll(() => t.close())

describe('admission of the chat stream', () => {
  it('refuses the chat stream past the cap before anything is stored', async () => {
    const alice = await signedInMember(t, 'Stream Chat Firm')
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${alice.orgId}/chat`,
      headers: alice.headers,
      payload: { messages: [{ role: 'user', content: 'What is the notice period?' }] },
    })
    expect(res.statusCode).toBe(429)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ code: 'too_many_streams' })
    const stored = await t.database.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.orgId, alice.orgId))
    expect(stored).toEqual([])
  })
})

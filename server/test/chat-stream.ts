/** Test helpers for the assistant's server-sent event stream. */
import type { TestApp, TestMember } from './test-app'

export interface ChatEvents {
  status: number
  contentType: string
  /** Every `data:` payload, parsed (the final '[DONE]' kept as the string). */
  events: unknown[]
  answer: string
  conversationId: string | undefined
  citations: Array<{ n: number; documentId: string; start: number; end: number; quote: string }>
  error: string | undefined
}

/** POSTs a chat question as `member` and parses the stream. */
export async function askAssistant(
  t: TestApp,
  member: TestMember,
  question: string,
  extra: Record<string, unknown> = {},
): Promise<ChatEvents> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${member.orgId}/chat`,
    headers: member.headers,
    payload: { messages: [{ role: 'user', content: question }], ...extra },
  })
  const events = res.body
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => chunk.slice(6))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)))
  type Event = {
    conversation_id?: string
    choices?: Array<{ delta: { content?: string } }>
    citations?: ChatEvents['citations']
    error?: string
  }
  const objects = events.filter((e): e is Event => typeof e === 'object' && e !== null)
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type']),
    events,
    answer: objects.map((e) => e.choices?.[0]?.delta.content ?? '').join(''),
    conversationId: objects.find((e) => e.conversation_id)?.conversation_id,
    citations: objects.find((e) => e.citations)?.citations ?? [],
    error: objects.find((e) => e.error)?.error,
  }
}

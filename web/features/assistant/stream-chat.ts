/**
 * Reads the assistant's server-sent event stream (POST …/chat): calls `onDelta` with each
 * `choices[0].delta.content` as it arrives and resolves with the conversation id and citations
 * once `[DONE]` arrives. Throws an Error with the server's message (a problem's detail before the
 * stream, or an `error` event in it).
 */
import type { components } from '../../lib/api-schema'

export type Citation = components['schemas']['Citation']

export interface ChatResult {
  conversationId: string | null
  citations: Citation[]
}

interface StreamEvent {
  conversation_id?: string
  choices?: Array<{ delta?: { content?: string } }>
  citations?: Citation[]
  error?: string
}

export async function streamChat(
  request: {
    orgId: string
    appId: string | null
    conversationId: string | null
    /** Limits the answer to these documents; empty = all. */
    documentIds?: readonly string[]
    messages: Array<{ role: 'user' | 'assistant'; content: string }>
  },
  onDelta: (text: string) => void,
  signal?: AbortSignal,
): Promise<ChatResult> {
  const res = await fetch(`/api/v1/orgs/${encodeURIComponent(request.orgId)}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({
      messages: request.messages,
      org_id: request.orgId,
      app_id: request.appId,
      ...(request.conversationId ? { conversation_id: request.conversationId } : {}),
      ...(request.documentIds?.length ? { document_ids: request.documentIds } : {}),
    }),
    signal,
  })
  if (!res.ok || !res.body) {
    const problem = (await res.json().catch(() => null)) as { detail?: string } | null
    throw new Error(problem?.detail ?? (res.statusText || 'Failed to get AI response'))
  }
  const result: ChatResult = { conversationId: null, citations: [] }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += value
    let end = buffer.indexOf('\n\n')
    while (end >= 0) {
      const event = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      end = buffer.indexOf('\n\n')
      if (!event.startsWith('data: ')) continue
      const data = event.slice(6)
      if (data === '[DONE]') return result
      const parsed = JSON.parse(data) as StreamEvent
      if (parsed.error) throw new Error(parsed.error)
      if (parsed.conversation_id) result.conversationId = parsed.conversation_id
      if (parsed.citations) result.citations = parsed.citations
      const delta = parsed.choices?.[0]?.delta?.content
      if (delta) onDelta(delta)
    }
  }
  return result
}

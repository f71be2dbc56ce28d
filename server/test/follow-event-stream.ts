/**
 * Test helper: follows a server-sent event stream over real HTTP (fetch against a listening app),
 * so a test can watch events arrive while the stream stays open, and close it the way a closed
 * browser tab does (the connection goes away mid-stream).
 */

/** One block of the stream: a `data:` line (parsed as JSON when it is JSON) or a `:` comment. */
export type StreamBlock = { data: unknown } | { comment: string }

export interface FollowedStream {
  status: number
  headers: Headers
  /** The body of an answer that is not a stream (a problem+json refusal), else ''. */
  body: string
  /** Every block received so far, oldest first; it grows while the stream is open. */
  blocks: StreamBlock[]
  /** The `data:` payloads received so far. */
  data(): unknown[]
  /** Whether the server ended the stream. */
  ended: boolean
  /** Drops the connection, as a closed tab does. */
  close(): void
}

function parseBlock(text: string): StreamBlock | null {
  if (text.startsWith(':')) return { comment: text.slice(1).trim() }
  if (!text.startsWith('data: ')) return null
  const payload = text.slice(6)
  try {
    return { data: JSON.parse(payload) as unknown }
  } catch {
    return { data: payload }
  }
}

/** Opens `url` with `init` and, for a 200 event stream, keeps reading it in the background. */
export async function followEventStream(url: string, init: RequestInit): Promise<FollowedStream> {
  const controller = new AbortController()
  const res = await fetch(url, { ...init, signal: controller.signal })
  const isStream = (res.headers.get('content-type') ?? '').startsWith('text/event-stream')
  const stream: FollowedStream = {
    status: res.status,
    headers: res.headers,
    body: isStream ? '' : await res.text(),
    blocks: [],
    data: () => stream.blocks.flatMap((b) => ('data' in b ? [b.data] : [])),
    ended: !isStream,
    close: () => controller.abort(),
  }
  if (isStream && res.body) void pump(res.body, stream)
  return stream
}

async function pump(body: ReadableStream<Uint8Array>, stream: FollowedStream): Promise<void> {
  const decoder = new TextDecoder()
  let buffer = ''
  const reader = body.getReader()
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true })
      let end = buffer.indexOf('\n\n')
      while (end >= 0) {
        const block = parseBlock(buffer.slice(0, end))
        if (block) stream.blocks.push(block)
        buffer = buffer.slice(end + 2)
        end = buffer.indexOf('\n\n')
      }
    }
    stream.ended = true
  } catch {
    // Aborted by close(): the test dropped the connection itself.
  }
}

/**
 * A fake OpenAI-compatible provider on 127.0.0.1 for tests of the openai engines: POST
 * /v1/embeddings answers deterministic vectors (hashed words, the requested `dimensions`, in
 * reverse order with their `index`, as a server may), POST /v1/chat/completions streams
 * `chatReply` as chat.completion.chunk events, or fails after `failAfterChunks` chunks with an
 * error event, as providers do mid-stream; a chat completion not streamed (structured output)
 * answers `complete(body)`'s content as a chat.completion, or its `status` as an HTTP error
 * (a promise never settled holds the request until the client aborts it). Every request body is
 * kept in `requests`; `aborted` counts requests the client closed before their answer.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeOpenAI {
  baseURL: string
  requests: Array<{ path: string; body: Record<string, unknown> }>
  chatReply: string[]
  failAfterChunks: number | null
  /** The answer to a chat completion not streamed: its message content, or an HTTP status. */
  complete: (body: Record<string, unknown>) => FakeCompletion | Promise<FakeCompletion>
  aborted: number
  close(): Promise<void>
}

function hashedVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0)
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 7
    for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0
    v[h % dim]! += 1
  }
  return v
}

export type FakeCompletion = { content: string } | { status: number }

export async function fakeOpenAI(): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    baseURL: '',
    requests: [],
    chatReply: ['No answer.'],
    failAfterChunks: null,
    complete: () => ({ content: '{}' }),
    aborted: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>
      fake.requests.push({ path: req.url ?? '', body })
      if (req.url?.endsWith('/embeddings')) {
        const inputs = body.input as string[]
        const dim = Number(body.dimensions)
        const data = inputs
          .map((text, index) => ({
            object: 'embedding',
            index,
            embedding: hashedVector(text, dim),
          }))
          .reverse()
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: {} }))
        return
      }
      if (body.stream !== true) {
        res.on('close', () => {
          if (!res.writableFinished) fake.aborted += 1
        })
        void Promise.resolve(fake.complete(body)).then((answer) => {
          if (res.destroyed) return
          res.setHeader('content-type', 'application/json')
          if ('status' in answer) {
            res.statusCode = answer.status
            res.end(JSON.stringify({ error: { message: 'upstream failure at 10.0.0.7' } }))
            return
          }
          res.end(
            JSON.stringify({
              id: 'chatcmpl-1',
              object: 'chat.completion',
              created: 0,
              model: body.model,
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: answer.content, refusal: null },
                  finish_reason: 'stop',
                },
              ],
            }),
          )
        })
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      fake.chatReply.forEach((piece, i) => {
        if (fake.failAfterChunks !== null && i >= fake.failAfterChunks) return
        const chunk = {
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 0,
          model: body.model,
          choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
        }
        res.write(`data: ${JSON.stringify(chunk)}\n\n`)
      })
      if (fake.failAfterChunks !== null) {
        res.end(
          `data: ${JSON.stringify({ error: { message: 'internal upstream failure at 10.0.0.7', type: 'server_error' } })}\n\n`,
        )
        return
      }
      res.end('data: [DONE]\n\n')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return fake
}

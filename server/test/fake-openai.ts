/**
 * A fake OpenAI-compatible provider on 127.0.0.1 for tests of the openai engines: POST
 * /v1/embeddings answers deterministic vectors (hashed words, the requested `dimensions`, in
 * reverse order with their `index`, as a server may), POST /v1/chat/completions streams
 * `chatReply` as chat.completion.chunk events, or fails after `failAfterChunks` chunks with an
 * error event, as providers do mid-stream. Every request body is kept in `requests`.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeOpenAI {
  baseURL: string
  requests: Array<{ path: string; body: Record<string, unknown> }>
  chatReply: string[]
  failAfterChunks: number | null
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

export async function fakeOpenAI(): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    baseURL: '',
    requests: [],
    chatReply: ['No answer.'],
    failAfterChunks: null,
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

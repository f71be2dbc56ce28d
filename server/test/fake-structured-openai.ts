/**
 * A fake OpenAI-compatible server on 127.0.0.1 for tests of structured output (decision 0116):
 * POST …/chat/completions answers the n-th request with `replies[n]`: a string is the assistant
 * message's content, a number an HTTP error status, a function is called with the request body
 * and answers either. With `refusesJsonSchema`, a request asking for
 * `response_format.type === 'json_schema'` gets a 400 as vLLM and older servers give, without
 * using a reply. Every request body is kept in `requests`. Runs in the test's process or, for a
 * child process under test, is reached through `baseURL`.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A chat request as the fake reads it. */
export interface FakeChatRequest {
  model: string
  response_format?: {
    type: string
    json_schema?: { name: string; strict?: boolean; schema: unknown }
  }
  messages: Array<{ role: string; content: string }>
  stream?: boolean
}

export type FakeReply = string | number | ((request: FakeChatRequest) => string | number)

export interface FakeStructuredOpenAI {
  baseURL: string
  requests: FakeChatRequest[]
  replies: FakeReply[]
  refusesJsonSchema: boolean
  close(): Promise<void>
}

/** Starts the fake; `close()` stops it. */
export async function fakeStructuredOpenAI(
  replies: FakeReply[] = [],
  options: { refusesJsonSchema?: boolean } = {},
): Promise<FakeStructuredOpenAI> {
  let answered = 0
  const fake: FakeStructuredOpenAI = {
    baseURL: '',
    requests: [],
    replies,
    refusesJsonSchema: options.refusesJsonSchema ?? false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    req.on('end', () => {
      const body = JSON.parse(raw) as FakeChatRequest
      fake.requests.push(body)
      res.setHeader('content-type', 'application/json')
      if (fake.refusesJsonSchema && body.response_format?.type === 'json_schema') {
        res.statusCode = 400
        res.end(
          JSON.stringify({
            error: {
              message: "response_format type 'json_schema' is not supported by this server",
              type: 'invalid_request_error',
            },
          }),
        )
        return
      }
      const planned = fake.replies[answered] ?? 500
      answered += 1
      const reply = typeof planned === 'function' ? planned(body) : planned
      if (typeof reply === 'number') {
        res.statusCode = reply
        res.end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }))
        return
      }
      res.end(
        JSON.stringify({
          id: `chatcmpl-${answered}`,
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: reply, refusal: null },
            },
          ],
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return fake
}

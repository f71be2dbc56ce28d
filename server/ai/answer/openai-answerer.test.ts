import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { OpenAIAnswerer } from './openai-answerer'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

async function fakeChat(status: number, content: string) {
  const bodies: { model: string; messages: { role: string; content: string }[] }[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      bodies.push(JSON.parse(body) as (typeof bodies)[number])
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(
        status === 200
          ? JSON.stringify({
              id: 'c1',
              object: 'chat.completion',
              created: 0,
              model: 'm',
              choices: [
                { index: 0, finish_reason: 'stop', message: { role: 'assistant', content } },
              ],
            })
          : JSON.stringify({ error: { message: 'down' } }),
      )
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies }
}

describe('OpenAIAnswerer', () => {
  it('sends the question with the built-in sources and reports the source the answer names', async () => {
    const chat = await fakeChat(
      200,
      'Your landlord must usually return the deposit. (Source: Leases and tenants)',
    )
    const answer = await new OpenAIAnswerer({ baseURL: chat.baseURL, model: 'gpt-test' }).answer(
      'Can my landlord keep my deposit?',
    )
    expect(chat.bodies[0]?.model).toBe('gpt-test')
    expect(chat.bodies[0]?.messages[0]?.content).toContain('Source "Leases and tenants"')
    expect(chat.bodies[0]?.messages[1]).toEqual({
      role: 'user',
      content: 'Can my landlord keep my deposit?',
    })
    expect(answer).toMatchObject({
      answered: true,
      engine: 'openai',
      sources: [{ id: 'lease', title: 'Leases and tenants' }],
    })
  })

  it('rejects when the provider fails', async () => {
    const chat = await fakeChat(500, '')
    await expect(
      new OpenAIAnswerer({ baseURL: chat.baseURL, model: 'gpt-test' }).answer('Hello?'),
    ).rejects.toThrow()
  })
})

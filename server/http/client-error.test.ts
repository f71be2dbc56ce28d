import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../test/test-app'

let t: TestApp
let port: number
beforeAll(async () => {
  t = await buildTestApp()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(() => t.close())

/** Sends `raw` bytes over a fresh connection; resolves with everything the server wrote back. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw))
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('end', () => resolve(answer))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(
    lines.map((line) => {
      const at = line.indexOf(':')
      return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()]
    }),
  )
  return { status: Number(statusLine.split(' ')[1]), headers, body }
}

describe("errors Node's HTTP parser answers before Fastify", () => {
  it('answers request header fields too large with a 431 problem', async () => {
    const res = parse(
      await exchange(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`),
    )
    expect(res.status).toBe(431)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
    expect(JSON.parse(res.body)).toMatchObject({
      type: 'about:blank',
      title: 'Request Header Fields Too Large',
      status: 431,
      code: 'headers_too_large',
    })
  })

  it('answers a malformed request with a 400 problem', async () => {
    const res = parse(await exchange('NOT A REQUEST\r\n\r\n'))
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: 'bad_request' })
  })
})

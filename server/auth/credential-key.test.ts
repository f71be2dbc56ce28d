/** credentialKey: who sent a request, by its credential, without a lookup. */
import { describe, expect, it } from 'vitest'
import type { FastifyRequest } from 'fastify'
import { credentialKey } from './credential-key'

const request = (headers: Record<string, string>, ip = '192.0.2.7') =>
  ({ headers, ip }) as unknown as FastifyRequest

const SESSION = 'better-auth.session_token=abc.signature'

describe('credentialKey', () => {
  it('names a session by its cookie alone, whatever other cookies come with it', () => {
    const key = credentialKey(request({ cookie: SESSION }))
    expect(key).toBe('session:abc.signature')
    expect(credentialKey(request({ cookie: `theme=dark; ${SESSION}` }, '198.51.100.1'))).toBe(key)
    expect(credentialKey(request({ cookie: 'better-auth.session_token=other.sig' }))).not.toBe(key)
  })

  it('names a request by its Authorization or x-api-key header before any cookie', () => {
    const bearer = credentialKey(request({ authorization: 'Bearer ldk_1', cookie: SESSION }))
    expect(bearer).not.toBe(credentialKey(request({ cookie: SESSION })))
    expect(credentialKey(request({ 'x-api-key': 'ldk_1' }))).toBe(bearer)
  })

  it('names a request without a credential by its address', () => {
    expect(credentialKey(request({ cookie: 'theme=dark' }))).toBe('ip:192.0.2.7')
  })
})

import { afterAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember } from '../test/test-app'
import { createTestCredentials } from '../test/test-credentials'
import type { CredentialVerifier } from './credential-registry'

const REFUSALS = 3

/** A verifier that knows no token and counts how often it was asked (each a database lookup). */
const lookups = { count: 0 }
const unknownKeys: CredentialVerifier = {
  scheme: 'Bearer',
  prefix: 'lxspy_',
  verify: async () => {
    lookups.count += 1
    return null
  },
}

const credentials = createTestCredentials()
const t = await buildTestApp({
  credentialVerifiers: [credentials.verifier, unknownKeys],
  apiRateLimits: {
    readsPerMinute: 1000,
    writesPerMinute: 1000,
    keyRequestsPerMinute: 1000,
    failedCredentialsPerMinute: REFUSALS,
  },
})
afterAll(() => t.close())

const owner = await signedInMember(t, 'Refused Credentials Firm')

/** A GET of the firm's entities from `address` with `authorization`. */
const listFrom = (address: string, authorization: string) =>
  t.app.inject({
    url: `/api/v1/orgs/${owner.orgId}/entities`,
    headers: { authorization },
    remoteAddress: address,
  })

const unknownKey = () => `Bearer lxspy_${crypto.randomUUID()}`

describe('refused credentials', () => {
  it('answers 429 with Retry-After to an address past its refused credentials per minute, before any lookup', async () => {
    const before = lookups.count
    for (let i = 0; i < REFUSALS; i += 1) {
      expect((await listFrom('10.0.0.1', unknownKey())).statusCode).toBe(401)
    }
    expect(lookups.count - before).toBe(REFUSALS)
    const blocked = await listFrom('10.0.0.1', unknownKey())
    expect(blocked.statusCode).toBe(429)
    expect(blocked.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(blocked.json()).toMatchObject({ code: 'rate_limited' })
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(lookups.count - before).toBe(REFUSALS)
    // Another address is not held back.
    expect((await listFrom('10.0.0.2', unknownKey())).statusCode).toBe(401)
  })

  it('keeps admitting a key the blocked address used successfully, and no new one', async () => {
    const working = credentials.issue({ orgId: owner.orgId, userId: owner.userId }).authorization
    expect((await listFrom('10.0.0.3', working)).statusCode).toBe(200)
    for (let i = 0; i < REFUSALS; i += 1) {
      expect((await listFrom('10.0.0.3', unknownKey())).statusCode).toBe(401)
    }
    expect((await listFrom('10.0.0.3', unknownKey())).statusCode).toBe(429)
    expect((await listFrom('10.0.0.3', working)).statusCode).toBe(200)
    const unseen = credentials.issue({ orgId: owner.orgId, userId: owner.userId }).authorization
    expect((await listFrom('10.0.0.3', unseen)).statusCode).toBe(429)
  })

  it('looks an unknown key up once, refusing its repeats from memory', async () => {
    const key = unknownKey()
    const before = lookups.count
    for (let i = 0; i < REFUSALS; i += 1) {
      const res = await listFrom('10.0.0.4', key)
      expect(res.statusCode).toBe(401)
      expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"')
    }
    expect(lookups.count - before).toBe(1)
  })
})

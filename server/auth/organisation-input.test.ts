import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, signedInMember, type TestApp, type TestMember } from '../test/test-app'

let t: TestApp
let alice: TestMember
beforeAll(async () => {
  t = await buildTestApp()
  alice = await signedInMember(t, 'Input Chambers')
})
afterAll(() => t.close())

const create = (payload: { name: string; slug: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/organization/create',
    headers: alice.headers,
    payload,
  })

describe('organisation names and slugs', () => {
  it('removes control and bidi characters from an organisation name', async () => {
    const res = await create({ name: 'Acme\u0007 Legal\u202E\r\nLLP', slug: `acme-${Date.now()}` })
    expect(res.statusCode).toBe(200)
    expect(res.json().name).toBe('Acme Legal LLP')
  })

  it('refuses a slug with characters other than lower-case letters, digits and dashes', async () => {
    const res = await create({ name: 'Spoof Firm', slug: 'spoof\u202Emrif' })
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json().detail).toMatch(/slug/i)
  })
})

describe('NUL characters sent to better-auth', () => {
  it('refuses a NUL in a query or body value with a 400 problem, never a 500', async () => {
    const lookups = [
      t.app.inject({
        url: '/api/auth/organization/get-full-organization?organizationSlug=a%00b',
        headers: alice.headers,
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/auth/organization/set-active',
        headers: alice.headers,
        payload: { organizationId: 'a\u0000b' },
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/magic-link',
        headers: alice.headers,
        payload: { email: 'a\u0000b@firm.test', callbackURL: '/dashboard' },
      }),
    ]
    for (const res of await Promise.all(lookups)) {
      expect(res.statusCode).toBe(400)
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(res.json().code).toBe('nul_character')
    }
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { verification } from '../db/schema'
import {
  buildTestApp,
  followLink,
  requestMagicLink,
  TEST_ORIGIN,
  uniqueEmail,
  type TestApp,
} from '../test/test-app'
import { MAGIC_LINK_TTL_SECONDS } from './auth'

let t: TestApp | undefined
afterEach(async () => {
  vi.useRealTimers()
  await t?.close()
  t = undefined
})

function hasSessionCookie(setCookie: string | string[] | undefined): boolean {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []
  return cookies.some((c) => /session_token=[^;]+/.test(c) && !/session_token=;/.test(c))
}

describe('magic-link sign-in', () => {
  it('signs in once with a link, lands on /dashboard, and refuses the same link again', async () => {
    t = await buildTestApp()
    const email = uniqueEmail()
    const link = await requestMagicLink(t, email)
    expect(link.startsWith(`${TEST_ORIGIN}/api/auth/magic-link/verify?token=`)).toBe(true)

    const first = await followLink(t, link)
    expect(first.statusCode).toBe(302)
    expect(first.headers.location).toBe(`${TEST_ORIGIN}/dashboard`)
    expect(hasSessionCookie(first.headers['set-cookie'])).toBe(true)

    const second = await followLink(t, link)
    expect(hasSessionCookie(second.headers['set-cookie'])).toBe(false)
    expect(String(second.headers.location)).toMatch(/error=/)
  })

  it('refuses a link after it expires', async () => {
    t = await buildTestApp()
    const link = await requestMagicLink(t, uniqueEmail())
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (MAGIC_LINK_TTL_SECONDS + 60) * 1000)
    const res = await followLink(t, link)
    expect(hasSessionCookie(res.headers['set-cookie'])).toBe(false)
    expect(String(res.headers.location)).toMatch(/error=/)
  })

  it('expires links within 15 minutes', () => {
    expect(MAGIC_LINK_TTL_SECONDS).toBeLessThanOrEqual(15 * 60)
  })

  it('stores the link token hashed, never in plain text', async () => {
    t = await buildTestApp()
    const link = await requestMagicLink(t, uniqueEmail())
    const token = new URL(link).searchParams.get('token')
    expect(token).toBeTruthy()
    const rows = await t.database.db.select().from(verification)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row.identifier).not.toContain(token)
      expect(row.value).not.toContain(token)
    }
  })

  it('answers known and unknown addresses the same way', async () => {
    t = await buildTestApp()
    const known = uniqueEmail('known')
    await followLink(t, await requestMagicLink(t, known))
    const send = (email: string) =>
      t!.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/magic-link',
        headers: { origin: TEST_ORIGIN },
        payload: { email, callbackURL: '/dashboard' },
      })
    const [a, b] = [await send(known), await send(uniqueEmail('unknown'))]
    expect(a.statusCode).toBe(b.statusCode)
    expect(a.body).toBe(b.body)
  })

  it('refuses a callback URL on another origin', async () => {
    t = await buildTestApp()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email: uniqueEmail(), callbackURL: 'https://attacker.example/steal' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().detail).toBe('callbackURL must be a path on this site')
    expect(t.mailer.outbox).toHaveLength(0)
    const link = await requestMagicLink(t, uniqueEmail())
    const tampered = new URL(link)
    tampered.searchParams.set('callbackURL', '//attacker.example/steal')
    expect((await followLink(t, tampered.toString())).statusCode).toBe(400)
  })

  it('rate limits link requests per e-mail address with a 429 problem and Retry-After', async () => {
    t = await buildTestApp({ signInLimits: { windowMs: 60_000, perEmail: 2, perClient: 100 } })
    const email = uniqueEmail()
    await requestMagicLink(t, email)
    await requestMagicLink(t, email)
    const limited = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email, callbackURL: '/dashboard' },
    })
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' })
    // Another address from the same client is still served.
    await expect(requestMagicLink(t, uniqueEmail())).resolves.toMatch(/token=/)
  })

  it('rate limits per client across addresses, and the verify route too', async () => {
    t = await buildTestApp({ signInLimits: { windowMs: 60_000, perEmail: 100, perClient: 2 } })
    await requestMagicLink(t, uniqueEmail())
    const link = await requestMagicLink(t, uniqueEmail())
    const third = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email: uniqueEmail(), callbackURL: '/dashboard' },
    })
    expect(third.statusCode).toBe(429)
    await followLink(t, link)
    await followLink(t, link)
    const verify = await followLink(t, link)
    expect(verify.statusCode).toBe(429)
    expect(verify.headers['retry-after']).toBeDefined()
  })
})

describe('sign-in limits behind a listed reverse proxy (TRUST_PROXY)', () => {
  const askFrom = (forwardedFor: string) =>
    t!.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN, 'x-forwarded-for': forwardedFor },
      payload: { email: uniqueEmail(), callbackURL: '/dashboard' },
    })

  it('keys on the address the proxy saw, whatever the client wrote to its left', async () => {
    t = await buildTestApp({
      trustProxy: '127.0.0.1',
      signInLimits: { windowMs: 60_000, perEmail: 100, perClient: 2 },
    })
    expect((await askFrom('198.51.100.1, 203.0.113.7')).statusCode).toBe(200)
    expect((await askFrom('198.51.100.2, 203.0.113.7')).statusCode).toBe(200)
    expect((await askFrom('198.51.100.3, 203.0.113.7')).statusCode).toBe(429)
    // Another client behind the same proxy has its own count.
    expect((await askFrom('198.51.100.3, 203.0.113.8')).statusCode).toBe(200)
  })
})

describe('better-auth answers', () => {
  const askForLink = (email: string) =>
    t!.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/magic-link',
      headers: { origin: TEST_ORIGIN },
      payload: { email, callbackURL: '/dashboard' },
    })

  it('refuses an e-mail address longer than 254 characters with a 400 problem and sends nothing', async () => {
    t = await buildTestApp()
    const res = await askForLink(`${'a'.repeat(64)}@${'b'.repeat(186)}.test`) // 256 characters
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(res.json()).toMatchObject({ status: 400, code: 'email_too_long' })
    expect(res.json().detail).toContain('254')
    expect(t.mailer.outbox).toHaveLength(0)
  })

  it('turns better-auth errors and unknown auth paths into problem+json', async () => {
    t = await buildTestApp()
    const invalid = await askForLink('not-an-address')
    expect(invalid.statusCode).toBe(400)
    expect(invalid.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(invalid.json()).toMatchObject({ status: 400, title: 'Bad Request' })
    expect(invalid.json().detail).toEqual(expect.any(String))

    const unknown = await t.app.inject({ url: '/api/auth/no-such-endpoint' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(unknown.json()).toMatchObject({ status: 404, title: 'Not Found' })
  })

  it('answers a wrong method on a known auth path with 405 and Allow', async () => {
    t = await buildTestApp()
    const res = await t.app.inject({ url: '/api/auth/sign-in/magic-link' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('POST')
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
  })
})

import { afterAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  confirmationFields,
  confirmSignIn,
  followLink,
  requestMagicLink,
  signedInMember,
  TEST_ORIGIN,
  uniqueEmail,
  type TestApp,
} from '../test/test-app'

// One app for the file: each test signs in addresses of its own (uniqueEmail), so none sees
// another's links or sessions, in any order.
const t = await buildTestApp()
afterAll(() => t.close())

function sessionCookieOf(setCookie: string | string[] | undefined): string | undefined {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []
  const session = cookies.find((c) => /session_token=[^;]+/.test(c) && !/session_token=;/.test(c))
  return session?.split(';')[0]
}

/** Opens `link` as a browser navigating from another site (a mail client, a hostile page). */
function openFromAnotherSite(app: TestApp, link: string, headers: Record<string, string> = {}) {
  const url = new URL(link)
  return app.app.inject({
    method: 'GET',
    url: url.pathname + url.search,
    headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', ...headers },
  })
}

async function sessionEmail(app: TestApp, cookie: string): Promise<string | undefined> {
  const res = await app.app.inject({ url: '/api/auth/get-session', headers: { cookie } })
  return (res.json() as { user?: { email: string } } | null)?.user?.email
}

describe('sign-in links ask before they sign in', () => {
  it('shows a cross-site navigation a page asking to sign in as the link’s address, without signing in', async () => {
    const email = uniqueEmail('attacker')
    const link = await requestMagicLink(t, email)
    const page = await openFromAnotherSite(t, link)
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['referrer-policy']).toBe('same-origin')
    expect(sessionCookieOf(page.headers['set-cookie'])).toBeUndefined()
    expect(page.body).toContain(`Sign in as ${email}`)
    expect(page.body).toMatch(/<form method="post" action="\/api\/auth\/magic-link\/verify">/)
    expect(confirmationFields(page.body)).toMatchObject({ callbackURL: '/dashboard' })
  })

  it('does not consume the token on a GET (a mail scanner’s prefetch): the confirmation still signs in', async () => {
    const email = uniqueEmail()
    const link = await requestMagicLink(t, email)
    await openFromAnotherSite(t, link)
    await openFromAnotherSite(t, link)
    const page = await openFromAnotherSite(t, link)
    expect(page.statusCode).toBe(200)
    const confirmed = await confirmSignIn(t, confirmationFields(page.body))
    expect(confirmed.statusCode).toBe(302)
    expect(confirmed.headers.location).toBe(`${TEST_ORIGIN}/dashboard`)
    const cookie = sessionCookieOf(confirmed.headers['set-cookie'])
    expect(cookie).toBeDefined()
    expect(await sessionEmail(t, cookie!)).toBe(email)
    // Once confirmed, the link is spent: opening it again leads to the error callback.
    const again = await openFromAnotherSite(t, link)
    expect(again.statusCode).toBe(302)
    expect(String(again.headers.location)).toMatch(/error=INVALID_TOKEN/)
  })

  it('refuses a confirmation posted from another site (a hostile page’s auto-submitted form)', async () => {
    const link = await requestMagicLink(t, uniqueEmail('attacker'))
    const fields = confirmationFields((await openFromAnotherSite(t, link)).body)
    for (const headers of [
      { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: TEST_ORIGIN, 'sec-fetch-site': 'same-site' },
    ]) {
      const forged = await confirmSignIn(t, fields, headers)
      expect(forged.statusCode).toBe(403)
      expect(forged.headers['content-type']).toMatch(/^application\/problem\+json/)
      expect(sessionCookieOf(forged.headers['set-cookie'])).toBeUndefined()
    }
    // What Chromium sends from the page itself (Origin null under a no-referrer policy).
    const own = await confirmSignIn(t, fields, { origin: 'null', 'sec-fetch-site': 'same-origin' })
    expect(own.statusCode).toBe(302)
    expect(sessionCookieOf(own.headers['set-cookie'])).toBeDefined()
  })

  it('asks a signed-in user before switching to another account, and does not switch without it', async () => {
    const alice = await signedInMember(t, 'Alice Firm')
    const attacker = uniqueEmail('attacker')
    const link = await requestMagicLink(t, attacker)

    const page = await openFromAnotherSite(t, link, { cookie: alice.headers.cookie })
    expect(page.statusCode).toBe(200)
    expect(sessionCookieOf(page.headers['set-cookie'])).toBeUndefined()
    expect(page.body).toContain(`You are signed in as ${alice.email}`)
    expect(page.body).toContain(`Sign in as ${attacker}`)
    expect(await sessionEmail(t, alice.headers.cookie)).toBe(alice.email)

    // A confirmation that was not given on that page (the form of a page shown before Alice
    // signed in) asks again and keeps her signed in as herself.
    const { signedInAs: _seen, ...unseen } = confirmationFields(page.body)
    const unasked = await confirmSignIn(t, unseen, { cookie: alice.headers.cookie })
    expect(unasked.statusCode).toBe(200)
    expect(unasked.body).toContain(`You are signed in as ${alice.email}`)
    expect(sessionCookieOf(unasked.headers['set-cookie'])).toBeUndefined()

    const switched = await confirmSignIn(t, confirmationFields(page.body), {
      cookie: alice.headers.cookie,
    })
    expect(switched.statusCode).toBe(302)
    expect(await sessionEmail(t, sessionCookieOf(switched.headers['set-cookie'])!)).toBe(attacker)
  })

  it('signs in through the whole flow, link to confirmation to the dashboard', async () => {
    const email = uniqueEmail()
    const res = await followLink(t, await requestMagicLink(t, email))
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe(`${TEST_ORIGIN}/dashboard`)
    expect(await sessionEmail(t, sessionCookieOf(res.headers['set-cookie'])!)).toBe(email)
  })

  it('escapes the address and the callback in the page', async () => {
    const email = `o'brien-${Date.now()}@firm.test`
    const link = new URL(await requestMagicLink(t, email))
    link.searchParams.set('callbackURL', '/dashboard?a="><script>alert(1)</script>')
    const page = await openFromAnotherSite(t, link.toString())
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('o&#39;brien')
    expect(page.body).not.toContain('<script>')
    expect(confirmationFields(page.body).callbackURL).toBe(
      '/dashboard?a="><script>alert(1)</script>',
    )
  })
})

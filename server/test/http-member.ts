/**
 * A signed-in organisation owner on a child server (child-server.ts), made over real HTTP the way
 * a browser does it: ask for a link, open the link the console mailer printed and confirm on its page, keep the session
 * cookie, create an organisation. Needs no vitest, so benchmarks use it too.
 */
import type { ChildServer } from './child-server'

export interface HttpMember {
  orgId: string
  /** Session cookie and the server's origin: enough for state-changing requests. */
  headers: { cookie: string; origin: string }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Fails with the response's status and body when it is not `expected`. */
async function expectStatus(res: Response, expected: number, what: string): Promise<void> {
  if (res.status !== expected)
    throw new Error(`${what} answered ${res.status}, expected ${expected}: ${await res.text()}`)
}

/** Signs a new user in through the printed magic link and creates an organisation they own. */
export async function signedInHttpMember(
  server: ChildServer,
  orgName = 'Crash Test Firm',
): Promise<HttpMember> {
  const email = `owner-${crypto.randomUUID()}@firm.test`
  const asked = await fetch(`${server.origin}/api/auth/sign-in/magic-link`, {
    method: 'POST',
    headers: { origin: server.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ email, callbackURL: '/dashboard' }),
  })
  await expectStatus(asked, 200, 'Asking for a sign-in link')
  const [, link] = await server.waitForOutput(
    new RegExp(`Mail to ${escapeRegExp(email)}: (\\S+)`),
    10_000,
  )
  // The link shows a confirmation page (decision 37); posting its form signs in.
  const page = await fetch(link ?? '')
  await expectStatus(page, 200, 'Opening the sign-in link')
  const form = new URLSearchParams(
    [...(await page.text()).matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(
      ([, name = '', value = '']): [string, string] => [name, value.replaceAll('&amp;', '&')],
    ),
  )
  const verified = await fetch(`${server.origin}/api/auth/magic-link/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin },
    body: form,
    redirect: 'manual',
  })
  await expectStatus(verified, 302, 'Confirming the sign-in')
  const cookie = verified.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const headers = { cookie, origin: server.origin }
  const created = await fetch(`${server.origin}/api/auth/organization/create`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: orgName, slug: `firm-${crypto.randomUUID()}` }),
  })
  await expectStatus(created, 200, 'Creating an organisation')
  const { id } = (await created.json()) as { id: string }
  return { orgId: id, headers }
}

/**
 * HTTP steps of `npm run test:server` against Lexdesk as a browser or script would take them:
 * sign in with the link a real SMTP server received, create an organisation, call the API.
 */
import type { MailCatcher } from './mail-catcher'

/** A signed-in person: the session cookie and the Origin (PUBLIC_URL) state changes need. */
export interface Member {
  email: string
  orgId: string
  headers: { cookie: string; origin: string }
}

/** Throws with the status and body unless `res` has status `expected`. */
export async function expectStatus(res: Response, expected: number, what: string): Promise<void> {
  if (res.status !== expected) {
    throw new Error(`${what} answered ${res.status}, expected ${expected}: ${await res.text()}`)
  }
}

/** The text of a raw mail's body with quoted-printable soft breaks and escapes undone. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/**
 * Asks `base` for a sign-in link for a new address, reads the link from the mail the SMTP server
 * received (it must point at `publicUrl`, the load balancer), opens it and confirms the sign-in,
 * then creates an organisation. `base` and the link may reach different instances.
 */
export async function signInByMail(
  base: string,
  publicUrl: string,
  mail: MailCatcher,
): Promise<Member> {
  const email = `partner-${crypto.randomUUID()}@firm.test`
  const asked = await fetch(`${base}/api/auth/sign-in/magic-link`, {
    method: 'POST',
    headers: { origin: publicUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ email, callbackURL: '/dashboard' }),
  })
  await expectStatus(asked, 200, 'Asking for a sign-in link')
  const raw = decodeQuotedPrintable(await mail.waitFor(email, 15_000))
  if (!/^Subject: .+/m.test(raw) || !/^From: .+/m.test(raw))
    throw new Error('the mail lacks headers')
  const escaped = publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const link = new RegExp(`${escaped}/\\S+?(?=["<\\s]|$)`, 'm').exec(raw)?.[0]
  if (!link) throw new Error(`no link to ${publicUrl} in the mail`)
  const page = await fetch(link.replaceAll('&amp;', '&'))
  await expectStatus(page, 200, 'Opening the sign-in link')
  const form = new URLSearchParams(
    [...(await page.text()).matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(
      ([, name = '', value = '']): [string, string] => [name, value.replaceAll('&amp;', '&')],
    ),
  )
  const verified = await fetch(`${publicUrl}/api/auth/magic-link/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: publicUrl },
    body: form,
    redirect: 'manual',
  })
  await expectStatus(verified, 302, 'Confirming the sign-in')
  const cookie = verified.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const headers = { cookie, origin: publicUrl }
  const created = await fetch(`${publicUrl}/api/auth/organization/create`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Server Mode LLP', slug: `firm-${crypto.randomUUID()}` }),
  })
  await expectStatus(created, 200, 'Creating an organisation')
  return { email, orgId: ((await created.json()) as { id: string }).id, headers }
}

/** Uploads `text` as a .txt document through `base`; resolves with the document's id. */
export async function uploadText(
  base: string,
  member: Member,
  name: string,
  text: string,
): Promise<string> {
  const body = new FormData()
  body.append('file', new Blob([text], { type: 'text/plain' }), name)
  const res = await fetch(`${base}/api/v1/orgs/${member.orgId}/documents`, {
    method: 'POST',
    headers: member.headers,
    body,
  })
  await expectStatus(res, 201, `Uploading ${name}`)
  return ((await res.json()) as { id: string }).id
}

/** GETs `path` under /api/v1/orgs/<org> through `base` and answers the response. */
export function orgGet(base: string, member: Member, path: string): Promise<Response> {
  return fetch(`${base}/api/v1/orgs/${member.orgId}${path}`, { headers: member.headers })
}

/** POSTs `body` as JSON to `path` under /api/v1/orgs/<org> through `base`. */
export function orgPost(base: string, member: Member, path: string, body: unknown) {
  return fetch(`${base}/api/v1/orgs/${member.orgId}${path}`, {
    method: 'POST',
    headers: { ...member.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

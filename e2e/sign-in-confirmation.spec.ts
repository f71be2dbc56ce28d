import { expect, test, type Page } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { printedLink, signIn } from './sign-in'

/** Asks for a sign-in link for `email` (as the sign-in form does) and returns the printed link. */
async function linkFor(page: Page, email: string): Promise<string> {
  const res = await page.request.post('/api/auth/sign-in/magic-link', {
    headers: { origin: E2E_BASE_URL },
    data: { email, callbackURL: '/dashboard' },
  })
  expect(res.status()).toBe(200)
  return printedLink(email)
}

async function signedInEmail(page: Page): Promise<string | undefined> {
  const session = (await (await page.request.get('/api/auth/get-session')).json()) as {
    user?: { email: string }
  } | null
  return session?.user?.email
}

test('a link opened while signed in as someone else asks before switching accounts', async ({
  page,
}) => {
  const alice = `alice-${Date.now()}@firm.test`
  const mallory = `mallory-${Date.now()}@attacker.test`
  await signIn(page, alice)
  const link = await linkFor(page, mallory)

  await page.goto(link)
  await expect(page.getByText(`You are signed in as ${alice}.`)).toBeVisible()
  expect(await signedInEmail(page)).toBe(alice)
  await page.getByRole('link', { name: `Stay signed in as ${alice}` }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  expect(await signedInEmail(page)).toBe(alice)

  // The link was not spent by being opened: confirming it now switches.
  await page.goto(link)
  await page.getByRole('button', { name: `Sign in as ${mallory}` }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  expect(await signedInEmail(page)).toBe(mallory)
})

test("a hostile page's links and auto-submitted forms do not sign the browser in", async ({
  page,
}) => {
  const mallory = `mallory-${Date.now()}@attacker.test`
  const link = await linkFor(page, mallory)
  const token = new URL(link).searchParams.get('token') ?? ''
  // A page on no origin of Lexdesk's: a form that posts the confirmation by itself.
  await page.setContent(`
    <form id="f" method="post" action="${E2E_BASE_URL}/api/auth/magic-link/verify">
      <input type="hidden" name="token" value="${token}">
      <input type="hidden" name="callbackURL" value="/dashboard">
    </form>
    <script>document.getElementById('f').submit()</script>`)
  await expect(page.getByText('cross_origin_request')).toBeVisible()
  expect(await signedInEmail(page)).toBeUndefined()

  // Navigating to the link itself only shows the confirmation page.
  await page.goto(link, { referer: 'https://attacker.example/' })
  await expect(page.getByRole('button', { name: `Sign in as ${mallory}` })).toBeVisible()
  expect(await signedInEmail(page)).toBeUndefined()
})

test('a sign-in link used a second time returns to the form, which says so and sends a new one', async ({
  browser,
}) => {
  const email = `twice-${Date.now()}@firm.test`
  const first = await browser.newContext()
  const page = await first.newPage()
  await page.goto('/auth')
  await page.getByLabel(/email/i).fill(email)
  await page.getByRole('button', { name: 'Send Secure Link' }).click()
  const link = await printedLink(email)
  await page.goto(link)
  await page.getByRole('button', { name: `Sign in as ${email}` }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await first.close()

  // Another browser (a colleague's forward, an old mail) opens the spent link.
  const second = await browser.newContext()
  const again = await second.newPage()
  await again.goto(link)
  await expect(again).toHaveURL(/\/auth\?error=/)
  await expect(again.getByRole('alert')).toHaveText(
    'This sign-in link was already used or has expired. Enter your e-mail to get a new link.',
  )
  await again.getByLabel(/email/i).fill(email)
  await again.getByRole('button', { name: 'Send Secure Link' }).click()
  await expect(again.getByText('Check your email', { exact: true })).toBeVisible()
  await second.close()
})

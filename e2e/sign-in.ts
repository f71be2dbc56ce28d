/** Sign-in for the e2e journeys: the real magic-link flow, reading the link the server prints. */
import { readFile } from 'node:fs/promises'
import { expect, type Page } from '@playwright/test'
import { E2E_LOG } from './server'

/** Waits for the server to print the sign-in link for `email` and returns it. */
export async function printedLink(email: string): Promise<string> {
  const pattern = new RegExp(`Mail to ${email.replace(/[.+]/g, '\\$&')}: (\\S+)`)
  for (let i = 0; i < 100; i++) {
    const match = pattern.exec(await readFile(E2E_LOG, 'utf8'))
    if (match?.[1]) return match[1]
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no sign-in link printed for ${email}`)
}

/** Signs `email` in from the landing page and waits for the dashboard. */
export async function signIn(page: Page, email: string) {
  await page.goto('/')
  await page.locator('a[href="/auth"]').first().click()
  await expect(page).toHaveURL(/\/auth$/)
  await page.getByLabel(/email/i).fill(email)
  await page.getByRole('button', { name: 'Send Secure Link' }).click()
  await expect(page.getByText('Check your email', { exact: true })).toBeVisible()
  await expect(page.getByText(email, { exact: true })).toBeVisible()
  await followPrintedLink(page, email)
  await expect(page).toHaveURL(/\/dashboard$/)
}

/**
 * Opens the link printed for `email` as a mail client does (a new navigation) and confirms the
 * sign-in on the page it shows (the link alone never signs in).
 */
export async function followPrintedLink(page: Page, email: string) {
  await page.goto(await printedLink(email))
  await expect(page.getByRole('heading', { name: 'Sign in to Lexdesk' })).toBeVisible()
  await page.getByRole('button', { name: `Sign in as ${email}` }).click()
}

/**
 * Creates an organisation from the dashboard's first-run card and waits for its URL
 * (`/dashboard/<slug>`, the slug being the name's plus a random suffix).
 */
export async function createOrganisation(page: Page, name: string) {
  await expect(page.getByText('Create your organization')).toBeVisible()
  await page.getByLabel('Organization name').fill(name)
  await page.getByRole('button', { name: /create/i }).click()
  await expect(page.getByText(name).first()).toBeVisible()
  await expect(page).toHaveURL(/\/dashboard\/[a-z0-9-]+$/)
}

/** The id of the signed-in user's organisation named `name` (for API calls beside the UI). */
export async function orgIdOf(page: Page, name: string): Promise<string> {
  const res = await page.request.get('/api/auth/organization/list')
  expect(res.ok()).toBe(true)
  const org = ((await res.json()) as { id: string; name: string }[]).find((o) => o.name === name)
  if (!org) throw new Error(`the user has no organisation named ${name}`)
  return org.id
}

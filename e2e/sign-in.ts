/** End-to-end helper: signs a user in through the magic link the test server prints. */
import { readFile } from 'node:fs/promises'
import { expect, type Page } from '@playwright/test'
import { E2E_LOG } from './server'

/** Waits for the server to print the sign-in link for `email` and returns it. */
async function printedLink(email: string): Promise<string> {
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
  await page.goto(await printedLink(email))
  await expect(page).toHaveURL(/\/dashboard$/)
}

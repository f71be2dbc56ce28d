import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { makePdf, SAMPLE_CONTRACT } from '../server/test/sample-files'
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

async function signIn(page: Page, email: string) {
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

test('a new user signs in, creates an organisation and reads a cited contract analysis', async ({
  page,
}) => {
  const email = `partner-${Date.now()}@firm.test`
  await signIn(page, email)
  await expect(page.getByText(email, { exact: true })).toBeVisible()

  await expect(page.getByText('Create your organization')).toBeVisible()
  await page.getByLabel('Organization name').fill('Harbor & Stone LLP')
  await page.getByRole('button', { name: /create/i }).click()
  await expect(page.getByText('Harbor & Stone LLP').first()).toBeVisible()

  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/documents$/)
  const pdf = await makePdf(SAMPLE_CONTRACT)
  await page.getByLabel('Upload a document').setInputFiles({
    name: 'northwind-msa.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(pdf),
  })
  await expect(page.getByRole('heading', { name: 'northwind-msa' }).first()).toBeVisible()

  await page.getByRole('button', { name: 'Analyze' }).click()
  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 60_000 })

  await expect(page.getByRole('button', { name: /^Party: Northwind Analytics/ })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Party: Contoso Legal/ })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Governing law: New York' })).toBeVisible()

  const clauses = page.getByRole('region', { name: 'Anti-Assignment' })
  await expect(clauses).toBeVisible()
  const clause = clauses.getByRole('button').first()
  const label = (await clause.getAttribute('aria-label')) ?? ''
  const clauseText = label.replace(/ \(\d+% confidence\)$/, '')
  await clause.click()
  const highlight = page.getByTestId('highlight')
  await expect(highlight).toBeVisible()
  await expect(highlight).toHaveText(clauseText)
  await expect(highlight).toContainText('assign')
})

test('the session survives a reload and Sign Out returns to the landing page', async ({ page }) => {
  const email = `associate-${Date.now()}@firm.test`
  await signIn(page, email)
  await page.reload()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText(email, { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Sign Out' }).click()
  await expect(page.getByText('Signed out successfully')).toBeVisible()
  await expect(page).toHaveURL(/\/$/)
})

import { expect, test } from '@playwright/test'
import { makePdf, SAMPLE_CONTRACT } from '../server/test/sample-files'
import { createOrganisation, signIn } from './sign-in'

test('a new user signs in, creates an organisation and reads a cited contract analysis', async ({
  page,
}) => {
  const email = `partner-${Date.now()}@firm.test`
  await signIn(page, email)
  await expect(page.getByText(email, { exact: true })).toBeVisible()

  await createOrganisation(page, 'Harbor & Stone LLP')

  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/[a-z0-9-]+\/documents$/)
  const pdf = await makePdf(SAMPLE_CONTRACT)
  await page.getByLabel('Upload a document').setInputFiles({
    name: 'northwind-msa.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(pdf),
  })
  await expect(
    page.getByRole('heading', { name: 'MASTER SERVICES AGREEMENT' }).first(),
  ).toBeVisible()

  await page.getByRole('button', { name: 'Analyze' }).click()
  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 60_000 })

  await expect(page.getByRole('button', { name: /^Party: Northwind Analytics/ })).toBeVisible()
  await expect(page.getByRole('button', { name: /^Party: Contoso Legal/ })).toBeVisible()
  await expect(
    page.getByRole('button', { name: 'Governing law: New York', exact: true }),
  ).toBeVisible()

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

import { expect, test } from '@playwright/test'
import { makePdf } from '../server/test/sample-files'
import { signIn } from './sign-in'

/** A distribution agreement written for this test: roles, a term, and a non-compete on one side. */
const DISTRIBUTION_AGREEMENT = [
  'DISTRIBUTION AGREEMENT',
  'This Distribution Agreement is made on March 2, 2021 by and between Quillon Instruments Inc. (the "Supplier") and Marrow Medical Supplies LLC (the "Distributor").',
  '1. Appointment. The Supplier appoints the Distributor as its distributor of the Products in Canada.',
  '2. Term. The term of this Agreement shall commence on March 2, 2021 and continue for a period of three (3) years.',
  '3. Non-Competition. The Distributor shall not sell any product that competes with the Products during the term of this Agreement.',
  '4. Liability. Each party’s total liability under this Agreement shall not exceed the fees paid in the prior twelve months.',
  '5. Governing Law. This Agreement is governed by the laws of the Province of Ontario.',
].join('\n\n')

test('the analysis shows the deal sheet, parties with roles and risks oriented to the party we act for, kept after a reload', async ({
  page,
}) => {
  await signIn(page, `counsel-${Date.now()}@firm.test`)
  await page.getByLabel('Organization name').fill('Quill & Marrow LLP')
  await page.getByRole('button', { name: /create/i }).click()
  await expect(page.getByText('Quill & Marrow LLP').first()).toBeVisible()

  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await page.getByLabel('Upload a document').setInputFiles({
    name: 'distribution.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await makePdf(DISTRIBUTION_AGREEMENT)),
  })
  // The upload's text extraction is a job on the worker pool: slow on a loaded machine.
  await expect(page.getByRole('heading', { name: 'DISTRIBUTION AGREEMENT' }).first()).toBeVisible({
    timeout: 60_000,
  })
  await page.getByRole('button', { name: 'Analyze' }).click()
  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 60_000 })

  // A contract's summary is its deal sheet (decision 0065): the deal and its term, each cited.
  const sheet = page.getByLabel('Deal sheet')
  await expect(sheet.getByText(/Distribution Agreement/i).first()).toBeVisible()
  await expect(sheet.getByRole('button', { name: 'Deal, source 1' })).toBeVisible()
  await expect(sheet.getByRole('button', { name: 'Term and renewal, source 1' })).toBeVisible()
  await expect(
    page.getByRole('button', { name: 'Party: Marrow Medical Supplies LLC, Distributor' }),
  ).toBeVisible()

  // Whose risk each one is comes from the server (decision 0073): the bearer while nothing is
  // chosen, then oriented to the party saved as "we act for", and still so after a reload.
  const nonCompete = (severity: string, name: RegExp) =>
    page.getByRole('region', { name: severity }).getByRole('button', { name })
  await expect(
    nonCompete('High severity', /^Non-compete:.*Risk for Marrow Medical Supplies LLC/),
  ).toBeVisible()

  const weActFor = page.getByRole('group', { name: 'We act for' })
  // The radio is checked once the server has saved the choice: click, then wait for the result.
  await weActFor.getByRole('radio', { name: 'Quillon Instruments Inc. (Supplier)' }).click()
  await expect(nonCompete('Low severity', /^Non-compete:.*Their risk/)).toBeVisible()

  await weActFor.getByRole('combobox', { name: 'We act for the role' }).selectOption('distributor')
  await expect(weActFor).toContainText('The distributor: Marrow Medical Supplies LLC.')
  await expect(nonCompete('High severity', /^Non-compete:.*Our risk/)).toBeVisible()

  await page.reload()
  await page.getByRole('button', { name: /^Full/ }).first().click()
  await expect(
    page.getByRole('group', { name: 'We act for' }).getByRole('combobox', {
      name: 'We act for the role',
    }),
  ).toHaveValue('distributor')
  await expect(nonCompete('High severity', /^Non-compete:.*Our risk/)).toBeVisible()
})

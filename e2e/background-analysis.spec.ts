import { expect, test } from '@playwright/test'
import { longContract } from '../server/ai/analyzer/test-contracts'
import { createOrganisation, signIn } from './sign-in'

test('a long contract is analysed as a background job whose progress survives a reload', async ({
  page,
}) => {
  await signIn(page, `counsel-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Long Matters LLP')
  await page.getByRole('link', { name: 'Documents', exact: true }).click()

  // About 2.5 million characters: several seconds of analysis, so it runs as a job.
  await page.getByLabel('Upload a document').setInputFiles({
    name: 'long-master-agreement.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(longContract(2_500_000)),
  })
  await expect(page.getByRole('heading', { name: 'long-master-agreement' }).first()).toBeVisible({
    timeout: 30_000,
  })
  await expect(page).toHaveURL(/document=/)

  await page.getByRole('button', { name: 'Analyze' }).click()
  const progress = page.getByRole('progressbar', { name: 'Analysis progress' })
  await expect(progress).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /Queued|Running/ })).toBeVisible()

  await page.reload()
  // The document reopens from the URL and the running job is found again.
  await expect(page.getByRole('heading', { name: 'long-master-agreement' }).first()).toBeVisible()
  await expect(progress).toBeVisible()

  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 80_000 })
  const result = page.getByRole('region', { name: 'Analysis result' })
  await expect(result.getByText('Ready')).toBeVisible()
  await expect(progress).toBeHidden()
})

import { expect, test, type Page } from '@playwright/test'
import { longContract } from '../server/ai/analyzer/test-contracts'
import { E2E_BASE_URL } from './server'
import { createOrganisation, signIn } from './sign-in'

/**
 * Starts a full analysis of a very long contract through the API, as a colleague of the same firm
 * would: with one running job per organisation (global-setup.ts), the firm's next job waits
 * behind its indexing for search and its analysis for seconds, whatever the speed of the machine
 * (3 million characters: longer made the whole queue outlast the test's patience on a slow CI).
 */
async function startLongAnalysisElsewhere(page: Page): Promise<void> {
  const orgId = await page.evaluate(() => window.localStorage.getItem('lexdesk.currentOrgId'))
  expect(orgId).toBeTruthy()
  const headers = { origin: E2E_BASE_URL }
  const uploaded = await page.request.post(`/api/v1/orgs/${orgId}/documents`, {
    headers,
    multipart: {
      file: {
        name: 'framework-agreement.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(longContract(3_000_000)),
      },
    },
  })
  expect(uploaded.status()).toBe(201)
  const started = await page.request.post(
    `/api/v1/orgs/${orgId}/documents/${(await uploaded.json()).id}/analyses`,
    { headers, data: { kind: 'full' } },
  )
  expect(started.status()).toBe(202)
}

test('a long contract is analysed as a background job whose progress survives a reload', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await signIn(page, `counsel-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Long Matters LLP')
  await startLongAnalysisElsewhere(page)
  await page.getByRole('link', { name: 'Documents', exact: true }).click()

  // Longer than the 60,000 characters analysed in the request, so it runs as a job.
  await page.getByLabel('Upload a document').setInputFiles({
    name: 'long-master-agreement.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(longContract(200_000)),
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
  // The document reopens from the URL and its job, still waiting or running, is found again.
  await expect(page.getByRole('heading', { name: 'long-master-agreement' }).first()).toBeVisible()
  await expect(progress).toBeVisible()

  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 120_000 })
  const result = page.getByRole('region', { name: 'Analysis result' })
  await expect(result.getByText('Ready')).toBeVisible()
  await expect(progress).toBeHidden()
})

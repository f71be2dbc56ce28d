import { expect, test, type Page } from '@playwright/test'
import { longContract } from '../server/test/test-contracts'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

/**
 * What a colleague of the same firm does through the API while the test user works: uploads a
 * very long contract (just under the 10,000,000 characters a document's text may hold) and starts
 * four full analyses of it. With one running job per organisation (global-setup.ts), the firm's
 * next job waits behind them (each takes seconds, ~4-5 s on the 2-core build machine), so it is
 * still waiting when the page reloads, whatever the machine's speed.
 * `release` removes the contract, which stops its analyses and its indexing for search (so that
 * cannot slow the specs after this one either), and the waiting job starts.
 */
async function holdTheFirmsJobSlot(page: Page): Promise<{ release: () => Promise<void> }> {
  const orgId = await orgIdOf(page, 'Long Matters LLP')
  const headers = { origin: E2E_BASE_URL }
  const uploaded = await page.request.post(`/api/v1/orgs/${orgId}/documents`, {
    headers,
    multipart: {
      file: {
        name: 'framework-agreement.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(longContract(9_500_000)),
      },
    },
  })
  expect(uploaded.status()).toBe(201)
  const documentId = ((await uploaded.json()) as { id: string }).id
  for (let i = 0; i < 4; i += 1) {
    const started = await page.request.post(
      `/api/v1/orgs/${orgId}/documents/${documentId}/analyses`,
      { headers, data: { kind: 'full' } },
    )
    expect(started.status()).toBe(202)
  }
  return {
    async release() {
      const removed = await page.request.delete(`/api/v1/orgs/${orgId}/documents/${documentId}`, {
        headers,
      })
      expect(removed.ok()).toBe(true)
    },
  }
}

test('a long contract is analysed as a background job whose progress survives a reload', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await signIn(page, `counsel-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Long Matters LLP')
  const colleague = await holdTheFirmsJobSlot(page)
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
  await expect(page.getByRole('status').filter({ hasText: /Queued|Running/ })).toBeVisible()

  await colleague.release()
  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 120_000 })
  const result = page.getByRole('region', { name: 'Analysis result' })
  await expect(result.getByText('Ready')).toBeVisible()
  await expect(progress).toBeHidden()
})

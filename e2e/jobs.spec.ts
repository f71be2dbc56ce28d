import { expect, test } from '@playwright/test'
import { longContract } from '../server/test/test-contracts'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

test("the jobs view shows a long document's indexing percentage and cancels it", async ({
  page,
}) => {
  test.setTimeout(180_000)
  await signIn(page, `jobs-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Indexing Matters LLP')
  const orgId = await orgIdOf(page, 'Indexing Matters LLP')
  // Long enough that its indexing for search runs for minutes, saving its passages in batches.
  const uploaded = await page.request.post(`/api/v1/orgs/${orgId}/documents`, {
    headers: { origin: E2E_BASE_URL },
    multipart: {
      file: {
        name: 'framework-agreement.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(longContract(2_000_000)),
      },
    },
  })
  expect(uploaded.status()).toBe(201)
  const title = ((await uploaded.json()) as { title: string }).title

  await page.getByRole('link', { name: 'Jobs', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/[a-z0-9-]+\/jobs$/)
  const table = page.getByRole('table', { name: 'Running jobs' })
  const row = table.getByRole('row').filter({ hasText: title })
  await expect(row.getByRole('cell').first()).toHaveText('Indexing')
  // The percentage moves as passages are saved, over the jobs rows' live changes.
  const bar = row.getByRole('progressbar', { name: `Indexing of ${title} progress` })
  await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]\d?$/, { timeout: 120_000 })
  await expect(row.getByRole('cell').nth(2)).toHaveText(/^[1-9]\d?% · \d+ of \d+ passages saved/)

  await row.getByRole('button', { name: `Cancel Indexing of ${title}` }).click()
  await expect(row).toHaveCount(0)
  await expect(table).toContainText('No jobs running.')
})

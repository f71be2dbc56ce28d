import { expect, test } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

test('a just-uploaded document shows in the home’s activity and in the analytics chart', async ({
  page,
}) => {
  await signIn(page, `insight-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Insight Firm')
  const orgId = await orgIdOf(page, 'Insight Firm')
  const uploaded = await page.request.post(`/api/v1/orgs/${orgId}/documents`, {
    headers: { origin: E2E_BASE_URL },
    multipart: {
      file: {
        name: 'lease-unit-4.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('The tenant shall pay the rent monthly in advance.'),
      },
      title: 'Lease of Unit 4',
    },
  })
  expect(uploaded.status()).toBe(201)
  const documentId = ((await uploaded.json()) as { id: string }).id

  // The home: real tiles and the upload in the recent activity, linking to the document.
  await page.reload()
  await expect(page.getByText('Sample data')).toHaveCount(0)
  const tile = page.getByText('Documents', { exact: true }).locator('xpath=..')
  await expect(tile.locator('dd')).toHaveText('1')
  const activity = page.getByRole('list', { name: 'Recent activity' })
  const line = activity.getByRole('link', { name: /uploaded Lease of Unit 4/ })
  await expect(line).toBeVisible()
  await line.click()
  await expect(page).toHaveURL(new RegExp(`/documents\\?document=${documentId}`))
  await expect(page.getByRole('heading', { name: 'Lease of Unit 4', level: 2 })).toBeVisible()

  // Analytics: the last 30 days by default, today's point counts the upload.
  await page.getByRole('link', { name: 'Analytics', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(page.locator('.uplot canvas').first()).toBeVisible()
  await expect(page.getByText('Chart visualization coming soon')).toHaveCount(0)
  await page.getByText('Show the figures as a table').click()
  const today = new Date().toISOString().slice(0, 10)
  const row = page.getByRole('row', { name: new RegExp(today) })
  await expect(row.getByRole('cell').first()).toHaveText('1')
  await expect(
    page.getByRole('list', { name: 'Recent activity' }).getByRole('link', {
      name: /uploaded Lease of Unit 4/,
    }),
  ).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download CSV' }).click()
  expect((await download).suggestedFilename()).toMatch(/^lexdesk-usage-.*\.csv$/)
})

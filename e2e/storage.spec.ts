import { expect, request, test } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, signIn } from './sign-in'

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

test('Storage: create a bucket, upload two files, open a signed URL, delete one', async ({
  page,
}) => {
  await signIn(page, `storage-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Storage Firm')
  await page.getByRole('link', { name: 'Storage', exact: true }).click()
  const panel = page.getByRole('region', { name: 'Buckets' })

  await panel.getByRole('button', { name: 'Bucket', exact: true }).click()
  await panel.getByLabel('Bucket name').fill('deeds-private')
  await panel.getByRole('button', { name: 'Create bucket' }).click()
  await expect(page.getByText('Bucket created')).toBeVisible()
  await expect(panel.getByLabel('Bucket', { exact: true })).toHaveValue(/[0-9a-f-]{36}/)

  await panel.getByLabel('Files to upload').setInputFiles([
    { name: 'lease.txt', mimeType: 'text/plain', buffer: Buffer.from('Lease of the premises') },
    { name: 'deed.txt', mimeType: 'text/plain', buffer: Buffer.from('Deed of transfer') },
  ])
  await expect(page.getByText('Uploaded')).toBeVisible()
  const names = panel.locator('tbody tr td:first-child')
  await expect(names).toHaveText(['deed.txt', 'lease.txt'])

  const lease = panel.getByRole('row', { name: /lease\.txt/ })
  await lease.getByRole('button', { name: 'Signed URL' }).click()
  await expect(page.getByText('Signed URL copied')).toBeVisible()
  const url = await page.evaluate(() => navigator.clipboard.readText())
  // Whoever holds the link reads the file, without the browser's session.
  const stranger = await request.newContext({ baseURL: E2E_BASE_URL })
  const opened = await stranger.get(url)
  expect(opened.status()).toBe(200)
  expect(await opened.text()).toBe('Lease of the premises')
  await stranger.dispose()

  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Delete this file?')
    void dialog.accept()
  })
  await panel.getByRole('button', { name: 'Delete deed.txt' }).click()
  await expect(names).toHaveText(['lease.txt'])
})

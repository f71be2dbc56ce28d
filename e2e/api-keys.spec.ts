import { expect, request, test } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

test('API keys: create one on the Security screen, call the API with it, revoke it, refused', async ({
  page,
}) => {
  await signIn(page, `keys-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Keys Firm')
  const orgId = await orgIdOf(page, 'Keys Firm')
  await page.getByRole('link', { name: 'Security', exact: true }).click()
  await expect(page.getByText('No API keys yet.')).toBeVisible()

  await page.getByRole('button', { name: 'Create API key' }).click()
  // The tenant-token form beside the keys has fields of its own: fill the dialog's.
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name').fill('Intake form')
  await expect(dialog.getByLabel('Scopes')).toHaveValue('read,write')
  await dialog.getByRole('button', { name: 'Create key' }).click()
  await expect(page.getByText('API Key created')).toBeVisible()
  const key = await page.getByLabel('Secret key of Intake form').inputValue()
  expect(key).toMatch(/^ldk_/)
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByRole('cell', { name: `${key.slice(0, 10)}…` })).toBeVisible()
  await expect(page.getByText(key)).toHaveCount(0)

  // A program, without the browser's cookies, sends the key.
  const program = await request.newContext({ baseURL: E2E_BASE_URL })
  const documentsUrl = `/api/v1/orgs/${orgId}/documents`
  const call = () => program.get(documentsUrl, { headers: { authorization: `Bearer ${key}` } })
  expect((await call()).status()).toBe(200)

  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('Revoke this key?')
    void dialog.accept()
  })
  await page.getByRole('button', { name: 'Revoke Intake form' }).click()
  await expect(page.getByText('Revoked').first()).toBeVisible()

  const refused = await call()
  expect(refused.status()).toBe(401)
  expect(refused.headers()['www-authenticate']).toBe('Bearer error="invalid_token"')
  await program.dispose()
})

import { expect, test } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

test('API docs: Authorize with an API key in Swagger UI, then Try it out answers 200', async ({
  page,
  browser,
}) => {
  await signIn(page, `docs-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Docs Firm')
  const orgId = await orgIdOf(page, 'Docs Firm')
  const made = await page.request.post(`/api/v1/orgs/${orgId}/api-keys`, {
    headers: { origin: E2E_BASE_URL },
    data: { name: 'Swagger UI', scopes: 'read' },
  })
  expect(made.status()).toBe(201)
  const { key } = (await made.json()) as { key: string }

  // An integrator's browser: no session cookie, only the key typed into "Authorize".
  const integrator = await browser.newContext()
  const docs = await integrator.newPage()
  await docs.goto('/api/docs')
  await docs.getByRole('button', { name: 'Authorize' }).first().click()
  const modal = docs.locator('.modal-ux')
  // One form per scheme of components.securitySchemes: the key goes in bearerAuth's.
  const bearer = modal.locator('.auth-container').filter({ hasText: 'bearerAuth' })
  await bearer.getByRole('textbox').fill(key)
  await bearer.getByRole('button', { name: 'Apply credentials' }).click()
  await expect(bearer.getByRole('button', { name: 'Remove authorization' })).toBeVisible()
  await bearer.getByRole('button', { name: 'Close' }).click()

  const operation = docs.locator('#operations-documents-listDocuments')
  await operation.locator('.opblock-summary').click()
  await operation.getByRole('button', { name: 'Try it out' }).click()
  await operation.locator('input[placeholder="orgId"]').fill(orgId)
  await operation.getByRole('button', { name: 'Execute' }).click()
  await expect(
    operation.locator('.live-responses-table tbody .response-col_status').first(),
  ).toHaveText('200')
  await integrator.close()
})

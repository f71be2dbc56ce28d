import { expect, test } from '@playwright/test'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

test('an owner mints a tenant token on Security, sees it decoded, calls the API with it, then revokes it and the same call is refused', async ({
  page,
  request,
}) => {
  await signIn(page, `tokens-owner-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Token Firm')
  const orgId = await orgIdOf(page, 'Token Firm')
  await page.getByRole('link', { name: 'Security', exact: true }).click()

  await page.getByLabel('TTL seconds').fill('600')
  await page.getByRole('button', { name: 'Mint token' }).click()
  await expect(page.getByText('Token minted')).toBeVisible()
  const token = (await page.getByTestId('minted-token').textContent()) ?? ''
  expect(token).toMatch(/^ldt_eyJ[\w-]+\.[\w-]+\.[\w-]+$/)

  // Decoded on screen: the header, the claims, and the expiry as a local time.
  await expect(page.getByTestId('token-header')).toContainText('"alg": "HS256"')
  const claims = page.getByTestId('token-claims')
  await expect(claims).toContainText(`"org_id": "${orgId}"`)
  await expect(claims).toContainText('"scope": "read write"')
  const shown = JSON.parse((await claims.textContent()) ?? '{}') as { iat: number; exp: number }
  expect(shown.exp - shown.iat).toBe(600)
  await expect(page.getByText(/^Expires /)).toContainText(
    await page.evaluate((exp) => new Date(exp * 1000).toLocaleString(), shown.exp),
  )

  // A program calls the API with the token alone (no cookie).
  const url = `/api/v1/orgs/${orgId}/documents`
  const headers = { authorization: `Bearer ${token}` }
  const listed = await request.get(url, { headers })
  expect(listed.status()).toBe(200)

  // Revoked from the list, the same call is refused.
  page.once('dialog', (dialog) => void dialog.accept())
  await page.getByRole('button', { name: /^Revoke token / }).click()
  await expect(page.getByText('Revoked', { exact: true }).first()).toBeVisible()
  const refused = await request.get(url, { headers })
  expect(refused.status()).toBe(401)
  expect(refused.headers()['www-authenticate']).toBe('Bearer error="invalid_token"')
})

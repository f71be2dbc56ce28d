import { expect, test } from '@playwright/test'
import { createOrganisation, signIn } from './sign-in'
import { E2E_IDP_CLIENT, E2E_IDP_ISSUER, E2E_SSO_DOMAIN } from './server'

test('an owner adds the firm’s identity provider on Security and attests its domain; a colleague signs in through it and lands in the organisation', async ({
  page,
  browser,
}) => {
  await signIn(page, `sso-owner-${Date.now()}@firm.test`)
  await createOrganisation(page, 'SSO Firm')
  await page.getByRole('link', { name: 'Security', exact: true }).click()

  const domain = `f${Date.now()}.${E2E_SSO_DOMAIN}`
  await page.getByLabel('Issuer URL').fill(E2E_IDP_ISSUER)
  await page.getByLabel('E-mail domain(s)').fill(domain)
  await page.getByLabel('Client ID').fill(E2E_IDP_CLIENT.clientId)
  await page.getByLabel('Client secret').fill(E2E_IDP_CLIENT.clientSecret)
  await page.getByRole('button', { name: 'Add provider' }).click()
  await expect(page.getByText('Domain not verified: nobody signs in through it yet')).toBeVisible()
  page.once('dialog', (dialog) => void dialog.accept())
  await page.getByRole('button', { name: `Attest that the firm controls ${domain}` }).click()
  await expect(page.getByText('Domain verified (attested by an owner)')).toBeVisible()

  // A colleague, in a browser of their own, signs in through the identity provider.
  const colleague = await browser.newContext()
  const other = await colleague.newPage()
  const email = `jane@${domain}`
  await other.goto('/auth')
  await other.getByRole('button', { name: 'Sign in with your firm’s SSO' }).click()
  await other.getByLabel(/email/i).fill(email)
  await other.getByRole('button', { name: 'Continue with SSO' }).click()
  await expect(other.getByRole('heading', { name: 'Test identity provider' })).toBeVisible()
  await other.getByLabel('E-mail').fill(email)
  await other.getByRole('button', { name: 'Sign in' }).click()
  await expect(other).toHaveURL(/\/dashboard/)
  // Just-in-time: a member of the firm's organisation.
  const orgs = await other.request.get('/api/auth/organization/list')
  expect(((await orgs.json()) as { name: string }[]).map((o) => o.name)).toContain('SSO Firm')
  await colleague.close()
})

import { expect, test } from '@playwright/test'

// Every dashboard screen under an organisation slug (decision 0042), plus the addresses without
// one (the home, and an old link kept working by a redirect).
const PROTECTED = [
  '/dashboard',
  '/dashboard/documents',
  '/dashboard/some-firm-k3v9',
  ...[
    'documents',
    'voice',
    'analytics',
    'entities',
    'conversations',
    'events',
    'vector',
    'security',
    'storage',
    'sql',
    'settings',
    'connect-gpt',
  ].map((screen) => `/dashboard/some-firm-k3v9/${screen}`),
]

test.describe('public pages', () => {
  test('landing page leads to sign-in, features and pricing', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.locator('a[href="/auth"]').first()).toBeVisible()
    await expect(page.locator('a[href="/features"]').first()).toBeVisible()
    await expect(page.locator('a[href="/pricing"]').first()).toBeVisible()
  })

  test('features page shows six features and sign-in buttons', async ({ page }) => {
    await page.goto('/features')
    for (const name of [
      /voice recording/i,
      /document analysis/i,
      /smart insights/i,
      /fast|speed/i,
      /security/i,
      /cloud storage/i,
    ]) {
      await expect(page.getByRole('heading', { name }).first()).toBeVisible()
    }
    await expect(page.getByRole('link', { name: /sign in/i }).first()).toHaveAttribute(
      'href',
      '/auth',
    )
    await expect(page.getByRole('link', { name: /get started/i }).first()).toHaveAttribute(
      'href',
      '/auth',
    )
  })

  test('pricing page shows the three plans', async ({ page }) => {
    await page.goto('/pricing')
    await expect(page.getByText('$29')).toBeVisible()
    await expect(page.getByText('$99')).toBeVisible()
    await expect(page.getByText('Most Popular')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', '/auth')
    await expect(page.getByRole('main').getByRole('link', { name: 'Get Started' })).toHaveCount(2)
  })

  test('sign-in page offers the e-mail form', async ({ page }) => {
    await page.goto('/auth')
    await expect(page.getByLabel(/email/i)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Send Secure Link' })).toBeVisible()
    await expect(page.locator('a[href="#terms"]')).toBeVisible()
    await expect(page.locator('a[href="#privacy"]')).toBeVisible()
  })

  test('demo page shows its three tabs', async ({ page }) => {
    await page.goto('/demo')
    for (const name of ['Voice Assistant', 'Document Analysis', 'Platform Features']) {
      await expect(page.getByRole('tab', { name })).toBeVisible()
    }
  })

  test('an unknown path shows the 404 page with a way home', async ({ page }) => {
    await page.goto('/no/such/page')
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible()
    await page.getByRole('link', { name: 'Return to Home' }).click()
    await expect(page).toHaveURL(/\/$/)
  })

  for (const route of PROTECTED) {
    test(`${route} sends a signed-out visitor to /auth`, async ({ page }) => {
      await page.goto(route)
      await expect(page).toHaveURL(/\/auth$/)
      await expect(page.getByRole('button', { name: 'Send Secure Link' })).toBeVisible()
    })
  }
})

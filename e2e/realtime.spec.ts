import { expect, test } from '@playwright/test'
import { createOrganisation, signIn } from './sign-in'

test('realtime: the monitor subscribed to entities shows an entity created in another browser context', async ({
  page,
  browser,
}) => {
  await signIn(page, `live-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Live Firm')
  const dashboard = new URL(page.url()).pathname

  await page.getByRole('link', { name: 'Storage', exact: true }).click()
  const monitor = page.getByRole('region', { name: 'Realtime Monitor' })
  await expect(monitor.getByLabel('Schema')).toHaveValue('public')
  await monitor.getByLabel('Table').fill('entities')
  await monitor.getByRole('button', { name: 'Subscribe', exact: true }).click()
  const log = monitor.getByRole('list', { name: 'Realtime events' })
  await expect(log.getByText('subscribed public.entities')).toBeVisible()

  // A colleague's browser (another context, the same session) creates an entity.
  const other = await browser.newContext({ storageState: await page.context().storageState() })
  const colleague = await other.newPage()
  const answers = ['Live Client', 'customer', '{"city":"Paris"}']
  colleague.on('dialog', (dialog) => void dialog.accept(answers.shift()))
  await colleague.goto(`${dashboard}/entities`)
  await colleague.getByRole('button', { name: 'New', exact: true }).click()
  await expect(colleague.getByText('Entity created').first()).toBeVisible()
  await other.close()

  const event = log.getByRole('listitem').filter({ hasText: 'Live Client' })
  await expect(event).toBeVisible()
  await expect(event).toContainText('"op":"insert"')
  await expect(event).toContainText('"table":"public.entities"')
  await expect(event.locator('time')).toBeVisible()

  await monitor.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(log.getByText('disconnected')).toBeVisible()
})

import { expect, test, type Page } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, followPrintedLink, orgIdOf, signIn } from './sign-in'

/** The titles of the library's cards, top to bottom. */
function cardTitles(page: Page) {
  return page
    .getByRole('list', { name: 'Documents' })
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => item.querySelector('button[title]')?.textContent ?? ''),
    )
}

test('a lawyer renames, deletes and bulk-deletes documents, and the library keeps it after a reload', async ({
  page,
}) => {
  await signIn(page, `tidy-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Tidy Firm')
  const orgId = await orgIdOf(page, 'Tidy Firm')
  for (const title of ['scan_0003', 'scan_0002', 'scan_0001', 'Old draft']) {
    const res = await page.request.post(`/api/v1/orgs/${orgId}/documents/text`, {
      headers: { origin: E2E_BASE_URL },
      data: { title, content: `The text of ${title}.` },
    })
    expect(res.ok()).toBe(true)
  }
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect
    .poll(() => cardTitles(page))
    .toEqual(['Old draft', 'scan_0001', 'scan_0002', 'scan_0003'])

  // Rename from the card: the dialog holds the old title, selected; Enter saves.
  await page.getByRole('button', { name: 'Rename scan_0001' }).click()
  const title = page.getByRole('dialog', { name: 'Rename document' }).getByLabel('Title')
  await expect(title).toHaveValue('scan_0001')
  await title.fill('Supply agreement (signed)')
  await title.press('Enter')
  await expect(page.getByText('Document renamed')).toBeVisible()
  await expect
    .poll(() => cardTitles(page))
    .toEqual(['Old draft', 'Supply agreement (signed)', 'scan_0002', 'scan_0003'])

  // Delete from the document page, after the confirm: the page closes.
  await page.getByRole('button', { name: 'Old draft', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Old draft', level: 2 })).toBeVisible()
  await page
    .getByRole('heading', { name: 'Old draft', level: 2 })
    .locator('xpath=ancestor::*[@data-slot="card"][1]')
    .getByRole('button', { name: 'Delete Old draft' })
    .click()
  await page
    .getByRole('dialog', { name: 'Delete “Old draft”?' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click()
  await expect(page.getByText('Deleted 1 document')).toBeVisible()
  await expect(page.getByText('Open a document from the library')).toBeVisible()
  await expect
    .poll(() => cardTitles(page))
    .toEqual(['Supply agreement (signed)', 'scan_0002', 'scan_0003'])

  // Bulk: tick two cards, one confirm, one request.
  await page.getByRole('checkbox', { name: 'Select scan_0002' }).check()
  await page.getByRole('checkbox', { name: 'Select scan_0003' }).check()
  await expect(page.getByText('2 selected')).toBeVisible()
  await page.getByRole('button', { name: 'Delete selected' }).click()
  const bulk = page.waitForResponse((res) => res.url().endsWith('/documents/bulk-delete'))
  await page
    .getByRole('dialog', { name: 'Delete 2 documents?' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click()
  expect((await bulk).status()).toBe(200)
  await expect(page.getByText('Deleted 2 documents')).toBeVisible()
  await expect.poll(() => cardTitles(page)).toEqual(['Supply agreement (signed)'])

  await page.reload()
  await expect.poll(() => cardTitles(page)).toEqual(['Supply agreement (signed)'])
})

test("a member cannot delete a colleague's document: the server's reason is shown and it stays", async ({
  page,
  browser,
}) => {
  await signIn(page, `partner-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Guarded Firm')
  const orgId = await orgIdOf(page, 'Guarded Firm')
  const res = await page.request.post(`/api/v1/orgs/${orgId}/documents/text`, {
    headers: { origin: E2E_BASE_URL },
    data: { title: 'Partner memo', content: 'Keep this.' },
  })
  expect(res.ok()).toBe(true)
  // A member of the same firm: invited through the team API, joining from the invitation's
  // sign-in link in a browser of their own.
  const email = `junior-${Date.now()}@firm.test`
  const invite = await page.request.post(`/api/v1/orgs/${orgId}/invitations`, {
    headers: { origin: E2E_BASE_URL },
    data: { email, role: 'member' },
  })
  expect(invite.ok()).toBe(true)
  const junior = await (await browser.newContext()).newPage()
  await followPrintedLink(junior, email)
  await junior.getByRole('button', { name: 'Join Guarded Firm' }).click()
  await expect(junior).toHaveURL(/\/dashboard\/guarded-firm-[a-z0-9]+$/)
  await junior.getByRole('link', { name: 'Documents', exact: true }).click()

  await junior.getByRole('checkbox', { name: 'Select all' }).check()
  await junior.getByRole('button', { name: 'Delete selected' }).click()
  await junior
    .getByRole('dialog', { name: 'Delete “Partner memo”?' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click()
  await expect(junior.getByText('Could not delete the document')).toBeVisible()
  await expect(junior.getByText(/Members can delete only documents they added/)).toBeVisible()
  await expect.poll(() => cardTitles(junior)).toEqual(['Partner memo'])
})

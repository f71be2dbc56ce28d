import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

/**
 * Answers the browser's prompt/confirm/alert dialogs in order: a string fills a prompt, true
 * accepts, null dismisses. Records each dialog's message.
 */
function answerDialogs(page: Page) {
  const answers: (string | true | null)[] = []
  const messages: string[] = []
  page.on('dialog', (dialog) => {
    messages.push(dialog.message())
    const answer = answers.shift()
    if (answer === null || answer === undefined) void dialog.dismiss()
    else void dialog.accept(answer === true ? undefined : answer)
  })
  return { queue: (...next: (string | true | null)[]) => answers.push(...next), messages }
}

const names = (page: Page) =>
  page
    .getByRole('textbox', { name: /^name of / })
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))

test('entities: create, edit inline, sort, page, hide a column, export, import elsewhere, bulk delete', async ({
  page,
}) => {
  const dialogs = answerDialogs(page)
  await signIn(page, `records-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Records Firm')
  await page.getByRole('link', { name: 'Entities', exact: true }).click()
  await expect(page.getByText('No entities.')).toBeVisible()

  // Create three entities through the prompts (name, type, JSON).
  for (const [name, type, json] of [
    ['Acme Corp', 'customer', '{"city":"Paris","tier":2}'],
    ['Beta LLP', 'lead', ''],
    ['=Gamma "quoted", inc', 'project', '{"city":"Berlin"}'],
  ] as const) {
    dialogs.queue(name, type, json)
    await page.getByRole('button', { name: 'New', exact: true }).click()
    await expect(page.getByText('Entity created').first()).toBeVisible()
    await expect(page.getByRole('textbox', { name: `name of ${name}` })).toBeVisible()
  }
  await expect(page.getByText('Rows: 3 / 3')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sort by data.city' })).toBeVisible()

  // Inline edits: a name, then data with invalid JSON (alert, edit kept), then valid JSON.
  const beta = page.getByRole('textbox', { name: 'name of Beta LLP' })
  await beta.fill('Beta Partners LLP')
  await beta.press('Enter')
  await expect(page.getByRole('textbox', { name: 'name of Beta Partners LLP' })).toBeVisible()
  const acmeData = page.getByRole('textbox', { name: 'data of Acme Corp' })
  await acmeData.fill('{"city": ')
  await acmeData.press('Enter')
  await expect.poll(() => dialogs.messages.at(-1)).toMatch(/^Invalid JSON: /)
  await expect(acmeData).toHaveValue('{"city": ')
  await acmeData.fill('{"city":"Lyon","tier":3}')
  await acmeData.press('Enter')
  await expect(page.getByRole('cell', { name: 'Lyon', exact: true })).toBeVisible()

  // Sort by name: ascending, then descending.
  await page.getByRole('button', { name: 'Sort by name' }).click()
  await expect(page.getByRole('columnheader', { name: 'Sort by name' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  )
  await expect
    .poll(() => names(page))
    .toEqual(['=Gamma "quoted", inc', 'Acme Corp', 'Beta Partners LLP'].sort())
  await page.getByRole('button', { name: 'Sort by name' }).click()
  await expect
    .poll(() => names(page))
    .toEqual(['=Gamma "quoted", inc', 'Acme Corp', 'Beta Partners LLP'].sort().reverse())

  // Thirty more through the API (same session), then page through them 25 at a time.
  const orgId = await orgIdOf(page, 'Records Firm')
  for (let i = 0; i < 30; i += 1) {
    const res = await page.request.post(`/api/v1/orgs/${orgId}/entities`, {
      headers: { origin: E2E_BASE_URL },
      data: { name: `Client ${String(i).padStart(2, '0')}`, type: 'customer', data: { n: i } },
    })
    expect(res.status()).toBe(201)
  }
  await page.reload()
  await expect(page.getByText('Rows: 33 / 33')).toBeVisible()
  await page.getByRole('combobox', { name: 'Page size' }).selectOption('25')
  await expect(page.getByText('Page 1 of 2')).toBeVisible()
  await page.getByRole('spinbutton', { name: 'Page number' }).fill('2')
  await expect(page.getByText('Rows: 8 / 33')).toBeVisible()
  await page.getByRole('spinbutton', { name: 'Page number' }).fill('9')
  await expect(page.getByRole('spinbutton', { name: 'Page number' })).toHaveValue('2')
  await expect(page.getByText('Page 2 of 2')).toBeVisible()

  // Hide the id column.
  await expect(page.getByRole('button', { name: 'Sort by id' })).toBeVisible()
  await page.getByRole('checkbox', { name: 'Show column id' }).uncheck()
  await expect(page.getByRole('button', { name: 'Sort by id' })).toBeHidden()

  // Export: every value quoted, the formula neutralised.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ])
  const csvPath = await download.path()
  const csv = await readFile(csvPath, 'utf8')
  expect(csv.split('\r\n')[0]).toBe('"id","org_id","app_id","type","name","data","created_at"')
  expect(csv).toContain(`"'=Gamma ""quoted"", inc"`)
  expect(csv.trim().split('\r\n')).toHaveLength(34)

  // Import the file into a second organisation.
  await page.getByRole('button', { name: 'New organization' }).click()
  await page.getByLabel('Organization name').fill('Second Firm')
  await page
    .getByRole('button', { name: /create/i })
    .last()
    .click()
  await expect(page.getByText('No entities.')).toBeVisible()
  await page.getByLabel('CSV file to import').setInputFiles(csvPath)
  await expect(page.getByText('Imported 33 entities')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Rows: 33 / 33')).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'name of =Gamma "quoted", inc' })).toBeVisible()
  await expect(page.getByRole('cell', { name: 'Lyon', exact: true })).toBeVisible()

  // Delete one row, then everything left on the page at once.
  dialogs.queue(true)
  await page.getByRole('button', { name: 'Delete Beta Partners LLP' }).click()
  await expect.poll(() => dialogs.messages.at(-1)).toBe('Delete entity?')
  await expect(page.getByText('Rows: 32 / 32')).toBeVisible()
  await page.getByRole('checkbox', { name: 'Select all rows' }).check()
  dialogs.queue(true)
  await page.getByRole('button', { name: 'Delete Selected' }).click()
  await expect.poll(() => dialogs.messages.at(-1)).toBe('Delete 32 entities?')
  await expect(page.getByText('Deleted', { exact: true }).first()).toBeVisible()
  await expect(page.getByText('No entities.')).toBeVisible()

  // The event log shows the import and the deletion.
  await page.getByRole('link', { name: 'Events', exact: true }).click()
  await expect(page.getByRole('cell', { name: 'entities.deleted' })).toHaveCount(2)
  await expect(page.getByRole('cell', { name: 'entities.imported' })).toBeVisible()
})

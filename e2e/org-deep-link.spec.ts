import { expect, test, type Page } from '@playwright/test'
import { SAMPLE_CONTRACT } from '../server/test/sample-files'
import { createOrganisation, signIn } from './sign-in'

/** Adds a pasted document titled `title` on the Documents screen of the page's organisation. */
async function pasteDocument(page: Page, title: string, text: string) {
  await page.getByRole('tab', { name: 'Paste text' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('textbox', { name: 'Document text' }).fill(text)
  await page.getByRole('button', { name: 'Add pasted text' }).click()
  await expect(page.getByRole('heading', { name: title }).first()).toBeVisible()
}

/** The titles in the page's document library, in screen order. */
async function libraryTitles(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Documents' })
  return (await list.getByRole('heading').allInnerTexts()).sort()
}

test("a deep link to another organisation's analysis opens in a new tab while the first tab keeps its organisation", async ({
  page,
  context,
}) => {
  await signIn(page, `two-firms-${Date.now()}@firm.test`)
  await createOrganisation(page, 'First Firm')
  const firstHome = page.url()

  // A second organisation, with a document and its analysis.
  await page.getByRole('button', { name: 'New organization' }).click()
  await page.getByLabel('Organization name').fill('Second Firm')
  await page
    .getByRole('button', { name: /create/i })
    .last()
    .click()
  await expect(page).toHaveURL(/\/dashboard\/second-firm-[a-z0-9]+$/)
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await pasteDocument(page, 'Second NDA', SAMPLE_CONTRACT)
  // The panel is ready once its previous analyses are read (on a loaded machine a click before
  // that was lost when the panel re-rendered with them).
  await expect(page.getByText('No analyses yet.')).toBeVisible()
  await page.getByRole('button', { name: 'Analyze' }).click()
  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 60_000 })
  await expect(page).toHaveURL(/\/dashboard\/second-firm-[a-z0-9]+\/documents\?document=/)
  const deepLink = page.url()

  // The first tab goes back to the first organisation's documents.
  await page.goto(firstHome)
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard\/first-firm-[a-z0-9]+\/documents$/)
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveText('First Firm')

  // The deep link, opened in a new tab, shows the second organisation's document and analysis.
  const second = await context.newPage()
  await second.goto(deepLink)
  await expect(second.getByRole('combobox', { name: 'Organization' })).toHaveText('Second Firm')
  await expect(second.getByRole('heading', { name: 'Second NDA' }).first()).toBeVisible()
  const history = second.getByRole('region', { name: 'Previous analyses' })
  await history.getByRole('button').first().click()
  await expect(second.getByRole('region', { name: 'Analysis result' })).toBeVisible()
  await expect(
    second.getByRole('button', { name: 'Governing law: New York', exact: true }),
  ).toBeVisible()

  // Both tabs keep working, each in its own organisation.
  await pasteDocument(page, 'First Memo', 'A memo of the first firm about its lease renewal.')
  await pasteDocument(second, 'Second Memo', 'A memo of the second firm about a supplier dispute.')
  await expect.poll(() => libraryTitles(page)).toEqual(['First Memo'])
  await expect.poll(() => libraryTitles(second)).toEqual(['Second Memo', 'Second NDA'])

  // A reload keeps each tab's organisation: the URL, not the browser's last choice, decides.
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Organization' })).toHaveText('First Firm')
  await expect.poll(() => libraryTitles(page)).toEqual(['First Memo'])
})

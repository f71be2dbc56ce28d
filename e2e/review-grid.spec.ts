import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import ExcelJS from 'exceljs'
import { expect, test, type Page } from '@playwright/test'
import type { AxeResults } from 'axe-core'
import { createOrganisation, signIn } from './sign-in'

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
// axe is injected as a script tag, which the Content-Security-Policy would refuse (as in
// accessibility.spec.ts).
test.use({ bypassCSP: true })

/** axe's critical, serious and moderate findings on the page as it is (accessibility.spec.ts). */
async function axeFindings(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE })
  // Toasts of the steps before (sonner's) are passing notices, not the screen.
  const results = (await page.evaluate(
    () =>
      (window as unknown as { axe: { run(context: unknown): Promise<AxeResults> } }).axe.run({
        exclude: [['[data-sonner-toaster]']],
      }) as Promise<unknown>,
  )) as AxeResults
  return results.violations
    .filter((v) => ['critical', 'serious', 'moderate'].includes(v.impact ?? ''))
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes[0]?.target.join(' ')}`)
}

/** Three short contracts, each naming its parties, its date and its governing law. */
const CONTRACTS = [
  {
    title: 'Northwind supply agreement',
    text: [
      'This Supply Agreement is made on 1 March 2024 between Northwind Traders Ltd ("Supplier") and Contoso Ltd ("Customer").',
      'The Supplier shall deliver the Goods within thirty days of each order.',
      'This Agreement shall be governed by the laws of England and Wales.',
    ].join('\n\n'),
  },
  {
    title: 'Osprey services agreement',
    text: [
      'This Services Agreement is dated 15 June 2023 between Osprey GmbH ("Provider") and Bluebird Inc. ("Client").',
      'The Client may terminate this Agreement for convenience on thirty days written notice.',
      'This Agreement is governed by the laws of the State of New York.',
    ].join('\n\n'),
  },
  {
    title: 'Harbour licence',
    text: [
      'This Licence Agreement is entered into on 2 January 2025 between Harbour Software Ltd ("Licensor") and Fabrikam SA ("Licensee").',
      'The Licensee shall pay the fees within thirty days of invoice.',
      'This Agreement shall be governed by the laws of France.',
    ].join('\n\n'),
  },
]

const QUESTION = 'May the Client terminate this Agreement for convenience?'

async function paste(page: Page, title: string, text: string) {
  await page.getByRole('tab', { name: 'Paste text' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('textbox', { name: 'Document text' }).fill(text)
  await page.getByRole('button', { name: 'Add pasted text' }).click()
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible()
}

test('builds a review of three documents, watches its cells arrive, opens a citation, overrides a cell and exports it', async ({
  page,
}) => {
  test.setTimeout(240_000)
  await signIn(page, `reviews-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Grid Counsel')
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  for (const c of CONTRACTS) await paste(page, c.title, c.text)

  await page.getByRole('link', { name: 'Reviews', exact: true }).click()
  await page.getByRole('button', { name: 'New review' }).click()
  const builder = page.getByRole('form', { name: 'New review' })
  await builder.getByLabel('Name').fill('Counterparty review')
  for (const c of CONTRACTS) await builder.getByRole('checkbox', { name: c.title }).check()
  // Three presets are ticked for a new review (parties, agreement date, governing law); a fourth
  // column is the lawyer's own question.
  await builder.getByLabel('Your own yes/no question').fill(QUESTION)
  await builder.getByRole('button', { name: 'Add question' }).click()
  await builder.getByRole('button', { name: 'Make the review' }).click()

  const grid = page.getByRole('grid', { name: 'Review grid' })
  await expect(grid.getByRole('columnheader')).toHaveText([
    'Document',
    'Parties',
    'Agreement date',
    'Governing law',
    QUESTION,
  ])
  // The cells arrive as the fill writes them, until none is pending.
  await expect(page.getByText('3 documents × 4 questions: 12 of 12 cells answered')).toBeVisible({
    timeout: 120_000,
  })
  await expect(grid.getByRole('button', { name: /: Pending$/ })).toHaveCount(0)
  // The header's two rows (the questions, their filters) and a row per document.
  await expect(grid.getByRole('row')).toHaveCount(5)
  // A header's button sorts the rows by its answer: dates as dates.
  await grid.getByRole('button', { name: 'Sort by Agreement date' }).click()
  await expect(grid.getByRole('columnheader', { name: /Agreement date/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  )
  await expect(grid.locator('tbody tr[data-index] td:first-child')).toHaveText([
    'Osprey services agreement',
    'Northwind supply agreement',
    'Harbour licence',
  ])

  // Open a cell: its citation is the document's own words, a link to the passage.
  const law = grid.getByRole('button', { name: /^Governing law of Northwind supply agreement: / })
  await expect(law).toContainText('England')
  await law.click()
  const aside = page.getByRole('complementary', { name: 'Citation' })
  const citation = aside.getByRole('list', { name: 'Citations' }).getByRole('link').first()
  await expect(citation).toContainText('England and Wales')
  await expect(citation).toHaveAttribute('href', /\/documents\?document=[\w-]+&start=\d+&end=\d+$/)

  // Override the Harbour licence's law.
  await grid.getByRole('button', { name: /^Governing law of Harbour licence: / }).click()
  await aside.getByRole('button', { name: 'Override' }).click()
  const form = aside.getByRole('form', { name: 'Override' })
  await form.getByLabel('Answer').fill('Laws of Belgium')
  await form.getByLabel('Note').fill('Amended by the side letter')
  await form.getByRole('button', { name: 'Save override' }).click()
  await expect(
    grid.getByRole('button', { name: 'Governing law of Harbour licence: Laws of Belgium' }),
  ).toBeVisible()

  // Export XLSX and read it back.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download XLSX' }).click(),
  ])
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer)
  const sheet = workbook.getWorksheet('Review')!
  const header = (sheet.getRow(1).values as unknown[]).slice(1)
  expect(header).toEqual(['Document', 'Parties', 'Agreement date', 'Governing law', QUESTION])
  const rows = new Map<string, ExcelJS.Row>()
  sheet.eachRow((row, n) => {
    if (n > 1) rows.set(String(row.getCell(1).value), row)
  })
  expect([...rows.keys()].sort()).toEqual(CONTRACTS.map((c) => c.title).sort())
  const northwind = rows.get('Northwind supply agreement')!
  expect(String(northwind.getCell(4).value)).toContain('England')
  expect(String(northwind.getCell(4).note)).toContain('England and Wales')
  const date = northwind.getCell(3).value
  expect(date instanceof Date ? date.toISOString().slice(0, 10) : date).toBe('2024-03-01')
  const harbour = rows.get('Harbour licence')!
  expect(harbour.getCell(4).value).toBe('Laws of Belgium')
  expect(String(harbour.getCell(4).note)).toContain('Overridden by a lawyer')
  expect(String(rows.get('Osprey services agreement')!.getCell(5).value)).toMatch(/^Yes/)

  // Keyboard: the arrow keys move between cells (one cell in the tab order).
  await law.focus()
  await page.keyboard.press('ArrowRight')
  await expect(
    grid.getByRole('button', { name: `${QUESTION} of Northwind supply agreement: ` }),
  ).toBeFocused()

  // On a phone the grid is a list of documents, a card of answers each; a tap opens the citation.
  await page.setViewportSize({ width: 390, height: 844 })
  const list = page.getByRole('list', { name: 'Review documents' })
  await expect(list.getByRole('listitem')).toHaveCount(3)
  const card = list.getByRole('listitem', { name: 'Northwind supply agreement' })
  await expect(card.getByText('Governing law', { exact: true })).toBeVisible()
  await card.getByRole('button', { name: /^Governing law of Northwind supply agreement: / }).click()
  await expect(
    aside.getByRole('list', { name: 'Citations' }).getByRole('link').first(),
  ).toContainText('England and Wales')
  await expect(aside).toBeInViewport()
  // How far the page scrolls sideways, and the outermost elements sticking out (the message).
  const sideways = await page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const out = (el: Element | null) => !!el && el.getBoundingClientRect().right > width + 1
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => out(el) && !out(el.parentElement))
      .map((el) => `<${el.tagName.toLowerCase()} class="${String(el.className).slice(0, 80)}">`)
    return { excess: document.documentElement.scrollWidth - width, culprits }
  })
  expect(sideways.excess, sideways.culprits.join('\n')).toBeLessThanOrEqual(0)
  expect(await axeFindings(page)).toEqual([])
  await page.setViewportSize({ width: 1280, height: 720 })
  // The grid (an ARIA grid with one cell in the tab order) and its citations pass axe too.
  await expect(grid).toBeVisible()
  expect(await axeFindings(page)).toEqual([])

  // The citation opens its passage in the document.
  await grid.getByRole('button', { name: /^Governing law of Northwind supply agreement: / }).click()
  await aside.getByRole('list', { name: 'Citations' }).getByRole('link').first().click()
  await expect(page).toHaveURL(/\/documents\?document=[\w-]+&start=\d+&end=\d+$/)
  await expect(
    page.getByRole('heading', { level: 2, name: 'Northwind supply agreement' }),
  ).toBeVisible()
})

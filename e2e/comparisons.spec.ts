import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { expect, test, type Page } from '@playwright/test'
import type { AxeResults } from 'axe-core'
import { strFromU8, unzipSync } from 'fflate'
import { createOrganisation, signIn } from './sign-in'

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
// axe is injected as a script tag, which the Content-Security-Policy would refuse (as in
// accessibility.spec.ts).
test.use({ bypassCSP: true })

/** The first version, and their markup: a period changed and a clause deleted. */
const BASE = [
  '1. Term. This Agreement continues for one (1) year.',
  '2. Notice. Either party may terminate on thirty (30) days written notice.',
  '3. Confidentiality. Each party shall keep the other party’s information confidential.',
  '4. Governing Law. This Agreement is governed by the laws of England and Wales.',
].join('\n\n')
const REVISED = [
  '1. Term. This Agreement continues for one (1) year.',
  '2. Notice. Either party may terminate on sixty (60) days written notice.',
  '3. Governing Law. This Agreement is governed by the laws of England and Wales.',
].join('\n\n')

async function paste(page: Page, title: string, text: string) {
  await page.getByRole('tab', { name: 'Paste text' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('textbox', { name: 'Document text' }).fill(text)
  await page.getByRole('button', { name: 'Add pasted text' }).click()
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible()
}

test('compares a document with its markup from the document, reads the changes in both texts and downloads the Word redline', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await signIn(page, `compare-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Compare Counsel')
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await paste(page, 'Supply terms v1', BASE)
  await paste(page, 'Supply terms v2', REVISED)

  // The document opened last is v2: open v1, whose page has "Compare with…".
  await page.getByRole('button', { name: 'Supply terms v1', exact: true }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Supply terms v1' })).toBeVisible()
  await page.getByRole('link', { name: 'Compare with…' }).click()
  const builder = page.getByRole('form', { name: 'New comparison' })
  await expect(builder.getByLabel('Earlier version (base)')).toHaveValue(/.+/)
  await builder
    .getByLabel('Later version (their markup)')
    .selectOption({ label: 'Supply terms v2' })
  await builder.getByRole('button', { name: 'Compare' }).click()

  const changes = page.getByRole('region', { name: 'Changes' })
  const period = changes.getByRole('button', { name: /thirty/ })
  await expect(period).toBeVisible({ timeout: 60_000 })
  await period.click()
  await expect(page.getByTestId('deleted-mark')).toContainText('thirty')
  await expect(page.getByTestId('inserted-mark')).toContainText('sixty')
  await expect(changes.getByRole('button', { name: /Removed/ })).toContainText('Confidentiality')

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Redline \(Word/ }).click(),
  ])
  const docx = unzipSync(new Uint8Array(await readFile(await download.path())))
  const xml = strFromU8(docx['word/document.xml']!)
  expect(xml).toContain('w:author="Lexdesk"')
  expect(xml).toContain('<w:del ')

  await page.addScriptTag({ path: AXE_SOURCE })
  const results = (await page.evaluate(
    () =>
      (window as unknown as { axe: { run(context: unknown): Promise<AxeResults> } }).axe.run({
        exclude: [['[data-sonner-toaster]']],
      }) as Promise<unknown>,
  )) as AxeResults
  expect(
    results.violations
      .filter((v) => ['critical', 'serious', 'moderate'].includes(v.impact ?? ''))
      .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes[0]?.target.join(' ')}`),
  ).toEqual([])
})

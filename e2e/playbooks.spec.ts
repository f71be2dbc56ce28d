import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { expect, test } from '@playwright/test'
import type { AxeResults } from 'axe-core'
import { strFromU8, unzipSync } from 'fflate'
import { createOrganisation, signIn } from './sign-in'

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
// axe is injected as a script tag, which the Content-Security-Policy would refuse (as in
// accessibility.spec.ts).
test.use({ bypassCSP: true })

const CONTRACT = [
  'SUPPLY AGREEMENT',
  'This Supply Agreement is made between Acme Parts Ltd ("Supplier") and Globex Retail plc ("Customer").',
  '1. Supply. Supplier shall supply the Products ordered by Customer from time to time.',
  '2. Exclusivity. Customer shall purchase the Products exclusively from Supplier and shall not engage any competitor of Supplier.',
  '3. Assignment. Neither party may assign this Agreement without the prior written consent of the other party.',
  '4. Governing Law. This Agreement shall be governed by the laws of the State of New York.',
].join('\n\n')

test('checks an analysed contract against a copied starter playbook, opens a cited passage and downloads the Word redline', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await signIn(page, `playbook-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Playbook Counsel')
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await page.getByRole('tab', { name: 'Paste text' }).click()
  await page.getByLabel('Title').fill('Supply terms')
  await page.getByRole('textbox', { name: 'Document text' }).fill(CONTRACT)
  await page.getByRole('button', { name: 'Add pasted text' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Supply terms' })).toBeVisible()
  await page.getByRole('button', { name: 'Analyze' }).click()
  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 60_000 })

  await page.getByRole('link', { name: 'Check against playbook…' }).click()
  const starters = page.getByRole('region', { name: 'Starter playbooks' })
  await starters.getByRole('button', { name: /Commercial supply/ }).click()
  const positions = page.getByRole('region', { name: 'Positions' })
  await positions.getByRole('button', { name: 'Approve version 1' }).click()
  await expect(positions.getByText('approved', { exact: true })).toBeVisible()

  const check = page.getByRole('form', { name: 'Check a document' })
  await expect(check.getByLabel('Document')).toHaveValue(/.+/)
  await check.getByRole('button', { name: 'Check' }).click()
  const results = page.getByRole('list', { name: 'Results per position' })
  const exclusivity = results.getByRole('button', { name: /Deviation.*No exclusivity/ })
  await expect(exclusivity).toBeVisible({ timeout: 30_000 })
  await exclusivity.click()
  await expect(page.getByTestId('citation-mark')).toContainText('exclusively from Supplier')

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Suggested redline \(Word/ }).click(),
  ])
  const docx = unzipSync(new Uint8Array(await readFile(await download.path())))
  const xml = strFromU8(docx['word/document.xml']!)
  expect(xml).toContain('w:author="Lexdesk"')
  expect(xml).toContain('<w:ins ')

  await page.addScriptTag({ path: AXE_SOURCE })
  const axe = (await page.evaluate(
    () =>
      (window as unknown as { axe: { run(context: unknown): Promise<AxeResults> } }).axe.run({
        exclude: [['[data-sonner-toaster]']],
      }) as Promise<unknown>,
  )) as AxeResults
  expect(
    axe.violations
      .filter((v) => ['critical', 'serious', 'moderate'].includes(v.impact ?? ''))
      .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes[0]?.target.join(' ')}`),
  ).toEqual([])
})

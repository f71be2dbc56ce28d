/**
 * Data management (issue 27): an organisation holding an analysed contract, an entity and a
 * voice recording is exported from the settings page, and the downloaded archive is imported
 * there as a new organisation; in the copy, the contract's analysis opens with its cited
 * passage highlighted, and the entity and the recording are there.
 */
import { expect, test } from '@playwright/test'
import { makePdf, SAMPLE_CONTRACT } from '../server/test/sample-files'
import { pcmToWav } from '../server/ai/speech/audio'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

test('an exported organisation comes back whole as a new one, its analysis still citing its source', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000)
  await signIn(page, `archivist-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Archive Source LLP')
  const home = new URL(page.url()).pathname

  // The contract, analysed through the page as a user would.
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await page.getByLabel('Upload a document').setInputFiles({
    name: 'northwind-msa.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await makePdf(SAMPLE_CONTRACT)),
  })
  await expect(
    page.getByRole('heading', { name: 'MASTER SERVICES AGREEMENT' }).first(),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Analyze' }).click()
  await expect(page.getByText('Analysis complete!')).toBeVisible({ timeout: 60_000 })

  // An entity and a recording, through the API beside the page.
  const api = `/api/v1/orgs/${await orgIdOf(page, 'Archive Source LLP')}`
  const headers = { origin: E2E_BASE_URL }
  const entity = await page.request.post(`${api}/entities`, {
    headers,
    data: { name: 'Northwind Analytics', type: 'client', data: { matter: 'MSA review' } },
  })
  expect(entity.status()).toBe(201)
  expect((await page.request.post(`${api}/voice/consent`, { headers })).status()).toBe(200)
  const recording = await page.request.post(`${api}/recordings`, {
    headers,
    multipart: {
      file: {
        name: 'memo.wav',
        mimeType: 'audio/wav',
        // One second of 16 kHz silence: a well-formed recording.
        buffer: Buffer.from(pcmToWav(new Uint8Array(32_000))),
      },
    },
  })
  expect(recording.status()).toBe(202)
  const memoTitle = ((await recording.json()) as { recording: { title: string } }).recording.title

  // Export, then import the downloaded archive as a new organisation.
  await page.goto(`${home}/settings`)
  await expect(page.getByRole('heading', { name: 'Data Management' })).toBeVisible()
  const downloading = page.waitForEvent('download', { timeout: 120_000 })
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^lexdesk-archive-source-llp-[a-z0-9-]+\.zip$/)
  const archive = testInfo.outputPath('archive.zip')
  await download.saveAs(archive)
  await expect(page.getByText('Export downloaded')).toBeVisible()

  const importPanel = page.getByRole('region', { name: 'Import' })
  await importPanel.getByLabel('ZIP archive').setInputFiles(archive)
  await importPanel.getByLabel('New organization name').fill('Archive Copy LLP')
  await importPanel.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(importPanel.getByRole('button', { name: 'Importing…' })).toBeDisabled()
  await expect(importPanel.getByText('Import completed')).toBeVisible({ timeout: 120_000 })
  const counts = importPanel.getByRole('table', { name: 'Rows imported per table' })
  // The contract, and the recording's own document.
  await expect(counts.getByRole('row', { name: 'documents 2' })).toBeVisible()
  await expect(counts.getByRole('row', { name: 'analyses 1' })).toBeVisible()
  await expect(counts.getByRole('row', { name: 'entities 1' })).toBeVisible()
  await expect(counts.getByRole('row', { name: 'recordings 1' })).toBeVisible()
  await importPanel.getByRole('link', { name: 'Open Archive Copy LLP' }).click()
  await expect(page).toHaveURL(/\/dashboard\/archive-copy-llp-[a-z0-9]+$/)
  const copyHome = new URL(page.url()).pathname

  // The copy's contract opens with its analysis, whose clause shows its cited passage.
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await page.getByRole('button', { name: 'MASTER SERVICES AGREEMENT' }).first().click()
  await page
    .getByRole('region', { name: 'Previous analyses' })
    .getByRole('button', { name: /^Full analysis · / })
    .click()
  const clauses = page.getByRole('region', { name: 'Anti-Assignment' })
  await expect(clauses).toBeVisible({ timeout: 30_000 })
  const clause = clauses.getByRole('button').first()
  const clauseText = ((await clause.getAttribute('aria-label')) ?? '').replace(
    / \(\d+% confidence\)$/,
    '',
  )
  await clause.click()
  const highlight = page.getByTestId('highlight')
  await expect(highlight).toHaveText(clauseText)
  await expect(highlight).toContainText('assign')

  await page.goto(`${copyHome}/entities`)
  await expect(page.getByRole('cell', { name: 'Northwind Analytics' }).first()).toBeVisible()
  await page.goto(`${copyHome}/voice`)
  await expect(
    page.getByRole('region', { name: 'Recordings' }).getByRole('heading', { name: memoTitle }),
  ).toBeVisible()
})

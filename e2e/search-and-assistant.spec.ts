import { expect, test } from '@playwright/test'
import { createOrganisation, signIn } from './sign-in'

const RETURN_CLAUSE =
  'Upon termination of this Agreement, the Receiving Party shall promptly return or destroy all copies, notes and summaries of the Confidential Information and certify the destruction in writing.'

const NDA = [
  'Mutual Non-Disclosure Agreement between Northwind Traders and Contoso Ltd. The Receiving Party shall keep all Confidential Information in strict confidence and use it only for the Purpose.',
  RETURN_CLAUSE,
  'This Agreement shall be governed by the laws of the State of New York, and each party submits to the courts of New York County for any dispute under it.',
  'The Supplier shall deliver the goods to the warehouse within thirty days of each purchase order, at its own cost and risk until delivery is complete.',
].join('\n\n')

test('finds a passage by meaning, opens a chat citation highlighted, and lists the conversation', async ({
  page,
}) => {
  await signIn(page, `researcher-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Meridian Counsel')

  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await page.getByRole('tab', { name: 'Paste text' }).click()
  await page.getByLabel('Title').fill('Northwind NDA')
  await page.getByLabel('Document text').fill(NDA)
  await page.getByRole('button', { name: 'Add pasted text' }).click()
  await expect(page.getByText(/Searchable by meaning: \d+ passages/)).toBeVisible({
    timeout: 30_000,
  })

  // "erase records after expiry" shares no word with the return-or-destroy clause.
  await page.getByRole('button', { name: 'By meaning' }).click()
  await page
    .getByRole('searchbox', { name: 'Search by meaning' })
    .fill('erase records after expiry')
  await page.getByRole('button', { name: 'Find' }).click()
  const first = page.getByRole('list', { name: 'Passages' }).getByRole('button').first()
  await expect(first).toContainText('return or destroy')
  await first.click()
  await expect(page.getByTestId('highlight')).toHaveText(RETURN_CLAUSE)

  await page.getByRole('link', { name: 'Dashboard', exact: true }).click()
  await page.getByLabel('Question').fill('What must be done with the copies of the information?')
  await page.getByRole('button', { name: 'Ask' }).click()
  await expect(page.getByLabel('Answer')).toContainText('No generative model is configured')
  const citation = page
    .getByRole('list', { name: 'Citations' })
    .getByRole('link', { name: /Northwind NDA/ })
    .first()
  await expect(citation).toBeVisible()
  await citation.click()
  await expect(page).toHaveURL(/\/dashboard\/meridian-counsel-[a-z0-9]+\/documents\?document=/)
  const highlight = page.getByTestId('highlight')
  await expect(highlight).toBeVisible()
  expect(NDA).toContain(await highlight.innerText())

  await page.getByRole('link', { name: 'Conversations', exact: true }).click()
  const cards = page.getByRole('list', { name: 'Conversations' }).getByRole('button')
  await expect(cards).toHaveCount(1)
  await expect(cards.first()).toContainText(/^[0-9a-f]{8}/)
  await cards.first().click()
  await expect(
    page.getByText('What must be done with the copies of the information?'),
  ).toBeVisible()
  await expect(page.getByRole('list', { name: 'Citations' }).first()).toBeVisible()
})

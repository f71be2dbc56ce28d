import { expect, test } from '@playwright/test'
import { createOrganisation, signIn } from './sign-in'

const RETURN_CLAUSE =
  'Upon termination of this Agreement, the Receiving Party shall promptly return or destroy all copies of the Confidential Information.'

const NDA = [
  'Mutual Non-Disclosure Agreement between Northwind Traders and Contoso Ltd.',
  'The Receiving Party shall keep all Confidential Information secret and shall not disclose it to any third party without prior written consent.',
  RETURN_CLAUSE,
  'This Agreement shall be governed by the laws of the State of New York.',
].join('\n\n')

// Another NDA that answers the same question the other way: a chat not limited to one document
// could quote it.
const OTHER_NDA = [
  'Confidentiality Agreement between Bluebird Ltd and Osprey GmbH.',
  'Upon termination of this Agreement, the Receiving Party may retain all copies of the Confidential Information and need not return or destroy them.',
].join('\n\n')

async function paste(page: import('@playwright/test').Page, title: string, text: string) {
  await page.getByRole('tab', { name: 'Paste text' }).click()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('textbox', { name: 'Document text' }).fill(text)
  await page.getByRole('button', { name: 'Add pasted text' }).click()
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible()
  await expect(page.getByText(/Searchable by meaning: \d+ passages?/)).toBeVisible({
    timeout: 30_000,
  })
}

test('asks a yes/no question about one document and gets the decision citing only it', async ({
  page,
}) => {
  await signIn(page, `answers-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Harbour Counsel')
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await paste(page, 'Osprey NDA', OTHER_NDA)
  await paste(page, 'Northwind NDA', NDA)

  await page
    .getByRole('listitem')
    .filter({ hasText: 'Northwind NDA' })
    .getByRole('link', { name: 'Ask about this document' })
    .click()
  await expect(page.getByTestId('assistant-scope')).toHaveText('Northwind NDA')
  await page
    .getByLabel('Question')
    .fill(
      'Must the Receiving Party return or destroy copies of the Confidential Information upon termination?',
    )
  await page.getByRole('button', { name: 'Ask' }).click()
  const answer = page.getByLabel('Answer')
  await expect(answer).toContainText('Deciding passage')
  await expect(answer).toHaveText(/^Yes\./)
  await expect(answer).toContainText(RETURN_CLAUSE)
  const citations = page.getByRole('list', { name: 'Citations' }).getByRole('link')
  await expect(citations.first()).toBeVisible()
  for (const citation of await citations.all())
    await expect(citation).toContainText('Northwind NDA')
})

import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { E2E_BASE_URL } from './server'
import { createOrganisation, followPrintedLink, orgIdOf, signIn } from './sign-in'

test('SQL runner: an admin runs a SELECT and exports CSV; a member is refused (403)', async ({
  page,
  browser,
}) => {
  await signIn(page, `dba-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Query Firm')
  const orgId = await orgIdOf(page, 'Query Firm')
  const res = await page.request.post(`/api/v1/orgs/${orgId}/documents/text`, {
    headers: { origin: E2E_BASE_URL },
    data: { title: 'Supply agreement', content: 'The supplier shall deliver.' },
  })
  expect(res.ok()).toBe(true)

  await page.getByRole('link', { name: 'SQL Runner', exact: true }).click()
  const editor = page.getByRole('textbox', { name: 'Query', exact: true })
  await editor.fill('select title, document_type from sql_documents order by title')
  await editor.press('Control+Enter')
  const result = page.getByRole('region', { name: 'Query result' })
  await expect(result.getByRole('cell', { name: 'Supply agreement' })).toBeVisible()
  await expect(result.getByRole('columnheader', { name: 'title text' })).toBeVisible()
  await expect(result.getByRole('status')).toHaveText(/^1 row in [\d,]+ ms$/)
  await expect(page.getByText(/At most 1,000 rows are shown/)).toBeVisible()

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^query-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = await readFile(await file.path(), 'utf8')
  expect(csv).toBe('"title","document_type"\r\n"Supply agreement","contract"\r\n')

  // A refused query says why, and joins the history.
  await editor.fill('select pg_sleep(100)')
  await page.getByRole('button', { name: 'Run' }).click()
  await expect(page.getByRole('alert')).toContainText('pg_sleep is not allowed')
  // The history: the run, the export's run, and the refusal on top.
  const history = page.getByRole('region', { name: 'Your last queries' }).getByRole('button')
  await expect(history).toHaveCount(3)
  await expect(history.first()).toContainText('select pg_sleep(100)')
  await expect(history.first()).toContainText('refused or failed')
  await expect(history.last()).toContainText('1 row,')

  // A member of the same firm does not get the runner: the screen says so without asking the
  // server (which would answer 403), and the API refuses a direct call.
  const email = `clerk-${Date.now()}@firm.test`
  const invite = await page.request.post(`/api/v1/orgs/${orgId}/invitations`, {
    headers: { origin: E2E_BASE_URL },
    data: { email, role: 'member' },
  })
  expect(invite.ok()).toBe(true)
  const clerk = await (await browser.newContext()).newPage()
  await followPrintedLink(clerk, email)
  await clerk.getByRole('button', { name: 'Join Query Firm' }).click()
  await expect(clerk).toHaveURL(/\/dashboard\/query-firm-[a-z0-9]+$/)
  const asked: string[] = []
  clerk.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(`/api/v1/orgs/${orgId}/sql`))
      asked.push(request.url())
  })
  await clerk.getByRole('link', { name: 'SQL Runner', exact: true }).click()
  await expect(clerk.getByRole('alert')).toHaveText(
    'Only owners and admins can use the SQL runner.',
  )
  await expect(clerk.getByRole('textbox', { name: 'Query', exact: true })).toHaveCount(0)
  expect(asked).toEqual([])
  const direct = await clerk.request.post(`/api/v1/orgs/${orgId}/sql`, {
    headers: { origin: E2E_BASE_URL },
    data: { sql: 'select title from sql_documents' },
  })
  expect(direct.status()).toBe(403)
  expect(await direct.text()).not.toContain('Supply agreement')
})

import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { createOrganisation, followPrintedLink, signIn } from './sign-in'

test('an owner invites a colleague, who signs in from the invitation in another browser, joins and reads the firm’s documents; the owner then changes their role and reads each step in the audit log and its CSV export', async ({
  page,
  browser,
}) => {
  const stamp = Date.now()
  await signIn(page, `team-owner-${stamp}@firm.test`)
  await createOrganisation(page, 'Team Firm')
  await page.getByRole('link', { name: 'Documents', exact: true }).click()
  await page.getByRole('tab', { name: 'Paste text' }).click()
  await page.getByLabel('Title').fill('Team Memo')
  await page.getByRole('textbox', { name: 'Document text' }).fill('A memo the whole team reads.')
  await page.getByRole('button', { name: 'Add pasted text' }).click()
  await expect(page.getByRole('heading', { name: 'Team Memo' }).first()).toBeVisible()

  // The owner invites a colleague as admin on the Members screen.
  const colleague = `team-colleague-${stamp}@firm.test`
  await page.getByRole('link', { name: 'Members', exact: true }).click()
  await page.getByLabel('Invite by e-mail').fill(colleague)
  await page.getByLabel('Role of the invitee').selectOption('admin')
  await page.getByRole('button', { name: 'Invite' }).click()
  await expect(page.getByText(`Invitation sent to ${colleague}`)).toBeVisible()
  const pending = page.getByRole('region', { name: 'Pending invitations' })
  await expect(pending.getByText(colleague)).toBeVisible()

  // The colleague, in a browser of their own, follows the invitation's sign-in link and joins.
  const other = await browser.newContext()
  const invitee = await other.newPage()
  await followPrintedLink(invitee, colleague)
  await expect(invitee).toHaveURL(/\/invitations\/[^/]+$/)
  await expect(invitee.getByText('You are invited to join')).toContainText('Team Firm')
  await invitee.getByRole('button', { name: 'Join Team Firm' }).click()
  await expect(invitee).toHaveURL(/\/dashboard\/team-firm-[a-z0-9]+$/)
  await invitee.getByRole('link', { name: 'Documents', exact: true }).click()
  await expect(invitee.getByRole('heading', { name: 'Team Memo' }).first()).toBeVisible()

  // The owner sees them as an admin member, and the invitation no longer pending.
  await page.reload()
  const members = page.getByRole('region', { name: 'Members' })
  const roleOfColleague = members.getByRole('combobox', { name: /^Role of / })
  await expect(roleOfColleague).toHaveValue('admin')
  await expect(pending.getByText(colleague)).toHaveCount(0)

  // The owner makes them a plain member; a reload shows the role kept.
  await roleOfColleague.selectOption('member')
  await expect(page.getByText(/ is now member$/)).toBeVisible()
  await page.reload()
  await expect(members.getByRole('combobox', { name: /^Role of / })).toHaveValue('member')
  await other.close()

  // Each step is in the audit log, newest first, and the log downloads as CSV.
  await page.goto(page.url().replace(/\/members(\?.*)?$/, '/audit'))
  const log = page.getByRole('table')
  for (const action of ['invitation.create', 'member.join', 'member.role_change']) {
    await expect(log.getByRole('cell', { name: action, exact: true }).first()).toBeVisible()
  }
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export CSV' }).click()
  const csv = await readFile(await (await download).path(), 'utf8')
  expect(csv.split('\n')[0]).toContain('action')
  for (const action of ['invitation.create', 'member.join', 'member.role_change']) {
    expect(csv).toContain(action)
  }

  // The role change links to the member itself: their row, marked, on the Members screen.
  const roleChange = log.getByRole('row').filter({ hasText: 'member.role_change' }).first()
  await roleChange.getByRole('link').click()
  await expect(page).toHaveURL(/\/members\?member=/)
  await expect(members.locator('tr[aria-current="true"]')).toContainText(colleague)
})

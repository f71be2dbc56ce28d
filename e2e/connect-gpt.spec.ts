import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { createOrganisation, signIn } from './sign-in'

test('connect GPT: an owner turns on external assistants after the notice and downloads the OpenAPI file', async ({
  page,
}) => {
  await signIn(page, `connect-${Date.now()}@firm.test`)
  await createOrganisation(page, 'Connect Firm')
  await page.getByRole('link', { name: 'Connect GPT', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Connect GPT', level: 1 })).toBeVisible()

  // Off for a new organisation; turning it on asks first, naming the provider.
  const turnOn = page.getByRole('button', { name: 'Turn on external assistants' })
  await expect(turnOn).toBeVisible()
  await turnOn.click()
  const notice = page.getByRole('dialog')
  await expect(notice).toContainText("sent to the assistant's provider")
  await notice.getByRole('button', { name: 'I understand, turn on' }).click()
  await expect(page.getByText('External assistants turned on')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Turn off external assistants' })).toBeVisible()

  // The endpoint list comes from the file the download serves.
  await expect(page.getByText('(logGptAction)')).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download OpenAPI file' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('lexdesk-assistant-openapi.json')
  const document = JSON.parse(await readFile(await file.path(), 'utf8')) as {
    openapi: string
    paths: Record<string, Record<string, { operationId: string }>>
  }
  expect(document.openapi).toMatch(/^3\.1\./)
  const operationIds = Object.values(document.paths).flatMap((methods) =>
    Object.values(methods).map((op) => op.operationId),
  )
  expect(operationIds).toEqual(
    expect.arrayContaining(['listRecentConversations', 'logGptAction', 'searchPassages']),
  )

  // The switch stays on after a reload (it is the organisation's, on the server).
  await page.reload()
  await expect(page.getByRole('button', { name: 'Turn off external assistants' })).toBeVisible()
})

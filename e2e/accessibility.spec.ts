/**
 * Accessibility (issue 30): axe-core, the engine behind Lighthouse's accessibility audits, finds
 * no critical, serious or moderate violation on any route: the public pages signed out and every
 * dashboard screen of web/org-screens.ts (so a screen added there is checked without editing
 * this spec), with a document in the organisation and one opened in the viewer.
 */
import { createRequire } from 'node:module'
import { expect, test, type Page } from '@playwright/test'
import type { AxeResults } from 'axe-core'
import { orgScreenNames, PUBLIC_PATHS } from './app-routes'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
// axe is injected as a script tag; the app's Content-Security-Policy (script-src 'self') would
// refuse it, so this spec's pages skip the policy (security-headers.test.ts checks the policy).
test.use({ bypassCSP: true })

/** Minor findings (best practice nits) are reported by axe but are not a failure here. */
const FAILING_IMPACTS = new Set(['critical', 'serious', 'moderate'])

/** Opens `path`, waits until it has drawn, runs axe on the whole page and fails on any finding. */
async function expectNoViolations(page: Page, path: string) {
  await page.goto(path)
  await page.waitForLoadState('networkidle')
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  await page.addScriptTag({ path: AXE_SOURCE })
  const results = await page.evaluate(
    () =>
      (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run() as Promise<unknown>,
  )
  const found = (results as AxeResults).violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ''))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 3)
          .map((n) => `    ${n.target.join(' ')}`)
          .join('\n')}`,
    )
  expect.soft(found, `axe on ${path}:\n${found.join('\n')}`).toEqual([])
}

test('no public page has an axe violation of moderate impact or worse', async ({ page }) => {
  for (const path of PUBLIC_PATHS) await expectNoViolations(page, path)
})

test('no dashboard screen has an axe violation of moderate impact or worse', async ({ page }) => {
  // Sixteen screens, each drawn to network idle and walked by axe: minutes on a loaded machine.
  test.setTimeout(300_000)
  await signIn(page, `axe-${Date.now()}@firm.test`)
  await expectNoViolations(page, '/dashboard')
  await createOrganisation(page, 'Axe Firm')
  const home = new URL(page.url()).pathname
  const orgId = await orgIdOf(page, 'Axe Firm')
  const doc = await page.request.post(`/api/v1/orgs/${orgId}/documents/text`, {
    headers: { origin: E2E_BASE_URL },
    data: {
      title: 'Supply agreement',
      content: 'The Supplier shall deliver the goods. '.repeat(20),
    },
  })
  expect(doc.ok()).toBe(true)

  const screens = await orgScreenNames()
  expect(screens).toEqual(expect.arrayContaining(['documents', 'entities']))
  for (const path of [home, ...screens.map((screen) => `${home}/${screen}`)])
    await expectNoViolations(page, path)
  await expectNoViolations(page, `${home}/documents?document=${(await doc.json()).id}`)
})

/**
 * Phones (issue 26): at 390 × 844 no screen scrolls sideways, and the opened document never
 * covers the analysis panel's header or its Listen button. The dashboard screens come from the
 * route table's own list (web/org-screens.ts), so a screen added there is visited here too.
 */
import { expect, test, type Page } from '@playwright/test'
import { orgScreenNames, PUBLIC_PATHS } from './app-routes'
import { E2E_BASE_URL } from './server'
import { createOrganisation, orgIdOf, signIn } from './sign-in'

const PHONE = { width: 390, height: 844 }
/** API calls beside the UI carry the page's origin, as the browser's own do (CSRF check). */
const headers = { origin: E2E_BASE_URL }

/**
 * Signs a new user in and creates the organisation `name` at the default (desktop) size, where
 * the sidebar names the organisation the helpers wait for; answers its dashboard path and id.
 */
async function newOrganisation(page: Page, who: string, name: string) {
  await signIn(page, `${who}-${Date.now()}@firm.test`)
  await createOrganisation(page, name)
  return { home: new URL(page.url()).pathname, orgId: await orgIdOf(page, name) }
}

/**
 * How far the page scrolls sideways (scrollWidth − clientWidth of the root, in CSS pixels), and
 * the elements sticking out past the right edge, for the failure message.
 */
function overflowOf(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement
    const width = root.clientWidth
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      // Keep the outermost: an element whose parent also sticks out adds nothing.
      .filter(
        (el) => !(el.parentElement && el.parentElement.getBoundingClientRect().right > width + 1),
      )
      .slice(0, 5)
      .map((el) => {
        const classes = typeof el.className === 'string' ? el.className.slice(0, 80) : ''
        return `<${el.tagName.toLowerCase()} class="${classes}"> right=${Math.round(el.getBoundingClientRect().right)}`
      })
    return { excess: root.scrollWidth - width, culprits }
  })
}

/** Waits until the screen has drawn (no loading skeleton, no pending requests), then checks it. */
async function expectNoSidewaysScroll(page: Page, path: string) {
  await page.goto(path)
  await page.waitForLoadState('networkidle')
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  const { excess, culprits } = await overflowOf(page)
  expect(
    excess,
    `${path} scrolls ${excess}px sideways:\n${culprits.join('\n')}`,
  ).toBeLessThanOrEqual(0)
}

test.describe('at 390 × 844', () => {
  test('no public screen scrolls sideways', async ({ page }) => {
    await page.setViewportSize(PHONE)
    for (const path of PUBLIC_PATHS) await expectNoSidewaysScroll(page, path)
  })

  test('no dashboard screen scrolls sideways, with data in its tables', async ({ page }) => {
    const { home, orgId } = await newOrganisation(page, 'phone', 'Pocket Firm')
    await page.setViewportSize(PHONE)
    const api = `/api/v1/orgs/${orgId}`
    const doc = await page.request.post(`${api}/documents/text`, {
      headers,
      data: {
        title: `Framework agreement for laboratory instruments ${'and services '.repeat(10)}`,
        content: 'The Supplier shall deliver the goods. '.repeat(40),
      },
    })
    expect(doc.ok()).toBe(true)
    const entity = await page.request.post(`${api}/entities`, {
      headers,
      data: {
        name: 'Acme Laboratory Instruments International Holdings',
        type: 'customer',
        data: { city: 'Paris', tier: 2, note: 'A long note that makes the data column wide' },
      },
    })
    expect(entity.ok()).toBe(true)
    // The Security screen's tables: a key and a tenant token.
    const key = await page.request.post(`${api}/api-keys`, {
      headers,
      data: { name: 'Intake form for the litigation department', scopes: 'read,write' },
    })
    expect(key.ok()).toBe(true)
    const token = await page.request.post(`${api}/tokens`, { headers, data: { scope: 'read' } })
    expect(token.ok()).toBe(true)

    const screens = await orgScreenNames()
    expect(screens).toEqual(expect.arrayContaining(['documents', 'entities']))
    for (const path of [home, ...screens.map((screen) => `${home}/${screen}`)])
      await expectNoSidewaysScroll(page, path)
    // The documents screen with a document open: the viewer and the analysis stack.
    await expectNoSidewaysScroll(page, `${home}/documents?document=${(await doc.json()).id}`)

    // The sidebar is a sheet on a phone: closed, it takes no width; opened, it fits the screen.
    await page.goto(`${home}/documents`)
    await expect(page.getByRole('link', { name: 'Entities', exact: true })).toBeHidden()
    await page.getByRole('button', { name: /toggle sidebar/i }).click()
    await expect(page.getByRole('link', { name: 'Entities', exact: true })).toBeVisible()
    expect((await overflowOf(page)).excess).toBeLessThanOrEqual(0)
  })
})

/**
 * What is drawn at the centre of `el`: '' when it is `el` or inside it (nothing covers it), else
 * a short description of the element on top.
 */
function coverOf(el: Element): string {
  const box = el.getBoundingClientRect()
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
  if (hit !== null && el.contains(hit)) return ''
  return hit
    ? `<${hit.tagName.toLowerCase()} class="${String(hit.className).slice(0, 80)}">`
    : 'nothing'
}

for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
  test(`the opened document never covers the analysis header or Listen (${viewport.width} px)`, async ({
    page,
  }) => {
    const { home, orgId } = await newOrganisation(page, 'reader', 'Reading Firm')
    await page.setViewportSize(viewport)
    const content = [
      'SERVICES AGREEMENT',
      'This Agreement is made between Northwind Analytics, Inc. ("Provider") and Contoso Legal LLP ("Client").',
      ...Array.from(
        { length: 30 },
        (_, i) => `${i + 1}. Provider shall perform the services of clause ${i + 1} with due care.`,
      ),
      'This Agreement is governed by the laws of the State of New York.',
    ].join('\n\n')
    const doc = await page.request.post(`/api/v1/orgs/${orgId}/documents/text`, {
      headers,
      data: { title: 'Services agreement', content },
    })
    expect(doc.ok()).toBe(true)
    await page.goto(`${home}/documents?document=${(await doc.json()).id}`)
    await page.getByRole('button', { name: 'Analyze' }).click()
    const panel = page.getByRole('region', { name: 'Analysis result' })
    const listen = panel.getByRole('button', { name: 'Listen: analysis' })
    await expect(listen).toBeVisible({ timeout: 60_000 })

    // 'Analysis complete!' sits top right for a few seconds; it is not what this test is about.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)

    // Scroll as a reader does, the panel's header anywhere from just under the top bar down the
    // screen: whatever the position, the header and Listen are drawn on top, never under the
    // opened document.
    const header = panel.getByText('AI analysis', { exact: true })
    let checked = 0
    for (const y of [72, 200, 400, 600]) {
      await header.evaluate((el, target) => {
        window.scrollBy({ top: el.getBoundingClientRect().top - target, behavior: 'instant' })
      }, y)
      const top = await header.evaluate((el) => el.getBoundingClientRect().top)
      // The page may end before the header can rise that far; only positions reached count.
      if (Math.abs(top - y) > 2) continue
      expect(await header.evaluate(coverOf), `what covers the analysis header at y=${y}`).toBe('')
      expect(await listen.evaluate(coverOf), `what covers Listen at y=${y}`).toBe('')
      checked += 1
    }
    expect(checked, 'no position of the header was reached').toBeGreaterThan(0)
  })
}

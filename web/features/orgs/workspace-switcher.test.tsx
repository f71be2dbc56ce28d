import { beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { CurrentOrgProvider, useCurrentOrg } from './current-org'
import { WorkspaceSwitcher } from './workspace-switcher'

const orgs = [
  { id: 'org-a', name: 'Alpha & Co', slug: 'alpha-co', createdAt: '2025-01-01T00:00:00.000Z' },
  { id: 'org-b', name: 'Beta LLP', slug: 'beta-llp', createdAt: '2025-01-01T00:00:00.000Z' },
]
const appsByOrg: Record<string, { id: string; slug: string }[]> = {
  'org-a': [{ id: 'app-lit', slug: 'litigation' }],
  'org-b': [{ id: 'app-tax', slug: 'tax' }],
}

function CurrentIds() {
  const { orgId, appId } = useCurrentOrg()
  return <output aria-label="current">{`${orgId}/${appId ?? 'all'}`}</output>
}

function renderSwitcher() {
  stubFetch((request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/api/auth/organization/list') return jsonResponse(orgs)
    const match = pathname.match(/^\/api\/v1\/orgs\/([^/]+)\/apps$/)
    if (match?.[1]) {
      const items = (appsByOrg[match[1]] ?? []).map((a) => ({
        ...a,
        orgId: match[1],
        createdAt: '2025-01-01T00:00:00.000Z',
      }))
      return jsonResponse({ items })
    }
    return undefined
  })
  return renderWithRouter({
    element: (
      <CurrentOrgProvider>
        <WorkspaceSwitcher />
        <CurrentIds />
      </CurrentOrgProvider>
    ),
  })
}

async function choose(selectName: string, optionName: string) {
  const user = userEvent.setup()
  await user.click(screen.getByRole('combobox', { name: selectName }))
  await user.click(await screen.findByRole('option', { name: optionName }))
}

describe('WorkspaceSwitcher', () => {
  beforeEach(() => {
    // jsdom lacks the pointer-capture and scroll APIs Radix Select calls.
    Element.prototype.hasPointerCapture ??= vi.fn(() => false)
    Element.prototype.releasePointerCapture ??= vi.fn()
    Element.prototype.scrollIntoView ??= vi.fn()
  })

  it("stores the chosen app in 'lexdesk.currentAppId' and clears it when the organization changes", async () => {
    renderSwitcher()
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Organization' })).toHaveTextContent(
        'Alpha & Co',
      ),
    )
    expect(screen.getByRole('combobox', { name: 'App' })).toHaveTextContent('All apps')

    await choose('App', 'litigation')
    expect(screen.getByLabelText('current')).toHaveTextContent('org-a/app-lit')
    expect(localStorage.getItem('lexdesk.currentAppId')).toBe('app-lit')

    await choose('Organization', 'Beta LLP')
    expect(screen.getByLabelText('current')).toHaveTextContent('org-b/all')
    expect(localStorage.getItem('lexdesk.currentOrgId')).toBe('org-b')
    expect(localStorage.getItem('lexdesk.currentAppId')).toBeNull()
    expect(screen.getByRole('combobox', { name: 'App' })).toHaveTextContent('All apps')

    await choose('App', 'tax')
    expect(screen.getByLabelText('current')).toHaveTextContent('org-b/app-tax')
  })
})

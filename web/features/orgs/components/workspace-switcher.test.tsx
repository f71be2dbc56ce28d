import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../../test/in-org-scope'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../../test/stub-fetch'
import { WorkspaceSwitcher } from './workspace-switcher'

describe('WorkspaceSwitcher', () => {
  it("says the organizations could not be loaded, with the server's reason, not 'None yet'", async () => {
    stubFetch({
      'GET /api/auth/organization/list': () => problemResponse(503, 'The database is restarting'),
      'GET /api/v1/orgs/org-1/apps': () => jsonResponse({ items: [] }),
    })
    renderWithRouter({ element: inOrgScope(<WorkspaceSwitcher />) })
    expect(
      await screen.findByText('Could not load your organizations: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
    expect(screen.queryByText('None yet')).toBeNull()
  })

  it("says the apps could not be loaded, with the server's reason", async () => {
    stubFetch({
      'GET /api/auth/organization/list': () =>
        jsonResponse([{ id: 'org-1', name: 'Acme Law', slug: 'acme-law' }]),
      'GET /api/v1/orgs/org-1/apps': () => problemResponse(503, 'The database is restarting'),
    })
    renderWithRouter({ element: inOrgScope(<WorkspaceSwitcher />) })
    expect(
      await screen.findByText('Could not load the apps: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
  })

  it("lists the user's organizations and shows the URL's one", async () => {
    stubFetch({
      'GET /api/auth/organization/list': () =>
        jsonResponse([{ id: 'org-1', name: 'Acme Law', slug: 'acme-law' }]),
      'GET /api/v1/orgs/org-1/apps': () => jsonResponse({ items: [] }),
    })
    renderWithRouter({ element: inOrgScope(<WorkspaceSwitcher />) })
    expect(await screen.findByRole('combobox', { name: 'Organization' })).toHaveTextContent(
      'Acme Law',
    )
  })
})

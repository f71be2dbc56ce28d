import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../test/in-org-scope'
import { renderWithRouter } from '../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../test/stub-fetch'
import { SettingsRoute } from './settings-route'

describe('SettingsRoute', () => {
  it("says why the user's organizations (the import's targets) could not be loaded", async () => {
    stubFetch({
      'GET /api/auth/organization/list': () => problemResponse(503, 'The database is restarting'),
      'GET /api/v1/orgs/org-1/jobs': () => jsonResponse({ items: [], total: 0 }),
    })
    renderWithRouter({ element: inOrgScope(<SettingsRoute />) })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your organizations could not be loaded, so Import lists none to import into: The database is restarting',
    )
  })
})

import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { DashboardHomePage } from './dashboard-home-page'

const BASE = '/api/v1/orgs/org-1/analytics'

describe('DashboardHomePage', () => {
  it('says why its figures and activity failed to load, with the server’s reason', async () => {
    stubFetch({
      'GET /api/auth/get-session': () => jsonResponse(null),
      [`GET ${BASE}/overview`]: () => problemResponse(503, 'The database is restarting'),
      [`GET ${BASE}/activity`]: () => problemResponse(503, 'The database is restarting'),
    })
    renderWithRouter({ element: inOrgScope(<DashboardHomePage />) })
    expect(
      await screen.findByText('The figures could not be loaded: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
    expect(
      await screen.findByText('The activity could not be loaded: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
    expect(screen.queryByText('Loading…')).toBeNull()
  })
})

import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { EventsScreen } from './events-screen'

const SCOPE = { orgId: 'org-1', appId: null }
const EVENTS = '/api/v1/orgs/org-1/events'

describe('EventsScreen', () => {
  it("says Loading… while the events load, not 'No events yet.'", async () => {
    stubFetch({ [`GET ${EVENTS}`]: () => new Promise<Response>(() => {}) })
    renderWithRouter({ element: <EventsScreen scope={SCOPE} /> })
    expect(await screen.findByRole('cell', { name: 'Loading…' })).toHaveAttribute(
      'aria-busy',
      'true',
    )
    expect(screen.queryByText('No events yet.')).toBeNull()
  })

  it('says when the organisation has no events', async () => {
    stubFetch({ [`GET ${EVENTS}`]: () => jsonResponse({ items: [], total: 0, kinds: [] }) })
    renderWithRouter({ element: <EventsScreen scope={SCOPE} /> })
    expect(await screen.findByRole('cell', { name: 'No events yet.' })).toBeVisible()
    expect(screen.queryByText('Loading…')).toBeNull()
  })

  it("shows the server's reason when the events fail to load, and no placeholder row", async () => {
    stubFetch({ [`GET ${EVENTS}`]: () => problemResponse(403, 'Only owners read the events') })
    renderWithRouter({ element: <EventsScreen scope={SCOPE} /> })
    expect(await screen.findByRole('alert')).toHaveTextContent('Only owners read the events')
    expect(screen.queryByText('Loading…')).toBeNull()
    expect(screen.queryByText('No events yet.')).toBeNull()
  })
})

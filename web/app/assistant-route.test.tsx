import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../test/in-org-scope'
import { renderWithRouter } from '../test/render-with-router'
import { problemResponse, stubFetch } from '../test/stub-fetch'
import { AssistantRoute } from './assistant-route'

const DOCUMENTS = '/api/v1/orgs/org-1/documents'

describe('AssistantRoute', () => {
  it("says the scope picker's documents are loading, not 'No documents yet.'", async () => {
    stubFetch({ [`GET ${DOCUMENTS}`]: () => new Promise<Response>(() => {}) })
    renderWithRouter({ element: inOrgScope(<AssistantRoute />) })
    expect(await screen.findByText('Loading documents…')).toBeInTheDocument()
    expect(screen.queryByText('No documents yet.')).toBeNull()
  })

  it("says why the scope picker's documents could not be loaded", async () => {
    stubFetch({ [`GET ${DOCUMENTS}`]: () => problemResponse(503, 'The database is restarting') })
    renderWithRouter({ element: inOrgScope(<AssistantRoute />) })
    expect(
      await screen.findByText('The documents could not be loaded: The database is restarting'),
    ).toHaveAttribute('role', 'alert')
    expect(screen.queryByText('No documents yet.')).toBeNull()
  })
})

import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { PassageStatus } from './passage-status'

const ORG = 'org-1'
const DOCUMENT = '22222222-2222-4222-8222-222222222222'

function renderStatus(state: Record<string, unknown>) {
  stubFetch({
    [`GET /api/v1/orgs/${ORG}/documents/${DOCUMENT}/passages`]: () =>
      jsonResponse({ progress: 1, embedder: 'local', error: null, ...state }),
  })
  renderWithRouter({ element: <PassageStatus orgId={ORG} documentId={DOCUMENT} /> })
}

describe('PassageStatus', () => {
  it('promises search by meaning when the database can compare vectors', async () => {
    renderStatus({ status: 'indexed', passages: 4, byMeaning: true })
    expect(await screen.findByText('Searchable by meaning: 4 passages')).toBeInTheDocument()
    expect(screen.queryByText(/no pgvector/)).not.toBeInTheDocument()
  })

  it('says words only, and why, on a database without pgvector', async () => {
    renderStatus({ status: 'indexed', passages: 1, byMeaning: false })
    expect(await screen.findByText('Searchable by words only: 1 passage')).toBeInTheDocument()
    expect(
      screen.getByText(/has no pgvector, so search matches words, not meaning/),
    ).toBeInTheDocument()
    expect(screen.queryByText(/Searchable by meaning/)).not.toBeInTheDocument()
  })

  it('shows the indexing state and a failure message', async () => {
    renderStatus({
      status: 'failed',
      passages: 0,
      byMeaning: true,
      error: 'The text could not be read.',
    })
    expect(await screen.findByText('Indexing for search by meaning failed')).toBeInTheDocument()
    expect(screen.getByText('The text could not be read.')).toBeInTheDocument()
  })
})

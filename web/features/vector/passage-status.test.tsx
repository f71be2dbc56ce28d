import { act, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FakeWebSocket } from '../../test/fake-web-socket'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { PassageStatus } from './passage-status'

const ORG = 'org-1'
const DOCUMENT = '22222222-2222-4222-8222-222222222222'

/**
 * Renders the status of DOCUMENT, its passages answered with `states` in turn (the last again
 * once they run out), each over an indexed answer of the local embedder.
 */
function renderStatus(...states: Record<string, unknown>[]) {
  let served = 0
  stubFetch({
    [`GET /api/v1/orgs/${ORG}/documents/${DOCUMENT}/passages`]: () =>
      jsonResponse({
        progress: 1,
        embedder: 'local',
        error: null,
        byMeaning: true,
        ...states[Math.min(served++, states.length - 1)],
      }),
  })
  renderWithRouter({ element: <PassageStatus orgId={ORG} documentId={DOCUMENT} /> })
}

/** Opens the live socket the status listens on; returns what announces a job row's change. */
function jobsChanges() {
  const socket = FakeWebSocket.opened[0] as FakeWebSocket
  act(() => socket.open())
  return () => act(() => socket.receive({ type: 'change', table: 'public.jobs', op: 'update' }))
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

  it('says how many passages of the total are indexed and when search by meaning becomes available', async () => {
    const states = [
      { status: 'queued', progress: 0, saved: null, total: null, passages: 0 },
      { status: 'running', progress: 0.25, saved: 85, total: 340, passages: 85 },
      { status: 'indexed', progress: 1, saved: 340, total: 340, passages: 340 },
    ]
    renderStatus(...states)
    expect(
      await screen.findByText('Search by meaning covers the document once it is indexed.'),
    ).toBeInTheDocument()
    const jobRowChanged = jobsChanges()
    jobRowChanged()
    expect(await screen.findByText('85 of 340 passages indexed · 25%')).toBeInTheDocument()
    expect(
      screen.getByText(
        'Search by meaning covers the whole document once all 340 passages are indexed.',
      ),
    ).toBeInTheDocument()
    jobRowChanged()
    expect(
      await screen.findByText('Search by meaning is now available for this document.'),
    ).toBeInTheDocument()
    expect(screen.getByText('Searchable by meaning: 340 passages')).toBeInTheDocument()
  })

  it("shows the share of passages saved, rising to 100% as the job's row changes", async () => {
    const states = [
      { status: 'running', progress: 0.25, passages: 100 },
      { status: 'running', progress: 0.999, passages: 399 },
      { status: 'indexed', progress: 1, passages: 400 },
    ]
    renderStatus(...states)
    expect(await screen.findByText('25% indexed')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Indexing progress' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    )
    const jobRowChanged = jobsChanges()
    jobRowChanged()
    // 99.9% is not yet 100%: the last passages are still being saved.
    expect(await screen.findByText('99% indexed')).toBeInTheDocument()
    jobRowChanged()
    expect(await screen.findByText('Searchable by meaning: 400 passages')).toBeInTheDocument()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
  })
})

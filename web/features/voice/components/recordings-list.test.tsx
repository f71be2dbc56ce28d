import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../../test/stub-fetch'
import { RecordingsList } from './recordings-list'

const ORG = 'org-1'
const recording = (id: string, title: string) => ({
  id,
  appId: null,
  title,
  mimeType: 'audio/webm',
  sizeBytes: 4,
  durationSec: 1,
  status: 'failed',
  error: 'No speech',
  errorCode: null,
  jobId: null,
  documentId: null,
  memoSummary: null,
  createdAt: '2026-11-20T10:00:00.000Z',
})
const latest = recording('00000000-0000-4000-8000-000000000001', 'Latest memo')
const older = recording('00000000-0000-4000-8000-000000000002', 'Older memo')

function renderAt(search: string) {
  stubFetch({
    [`GET /api/v1/orgs/${ORG}/recordings`]: () => jsonResponse({ items: [latest], total: 2 }),
    [`GET /api/v1/orgs/${ORG}/recordings/${older.id}`]: () =>
      jsonResponse({ ...older, segments: [] }),
  })
  renderWithRouter({
    routes: [{ path: '/voice', element: <RecordingsList orgId={ORG} appId={null} /> }],
    initialPath: `/voice${search}`,
  })
}

describe('RecordingsList', () => {
  it('says Loading while the recordings load, then why they failed, never "No recordings yet."', async () => {
    let fail: (response: Response) => void = () => {}
    stubFetch({
      [`GET /api/v1/orgs/${ORG}/recordings`]: () =>
        new Promise<Response>((resolve) => {
          fail = resolve
        }),
    })
    renderWithRouter({ element: <RecordingsList orgId={ORG} appId={null} /> })
    expect(await screen.findByText('Loading recordings…')).toBeVisible()
    fail(problemResponse(503, 'The database is restarting'))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The recordings could not be loaded: The database is restarting',
    )
    expect(screen.queryByText('Loading recordings…')).toBeNull()
    expect(screen.queryByText('No recordings yet.')).toBeNull()
  })

  it('marks the recording its address names (an audit link)', async () => {
    renderAt(`?recording=${latest.id}`)
    const title = await screen.findByRole('heading', { name: 'Latest memo' })
    expect(title.closest('article')).toHaveAttribute('aria-current', 'true')
  })

  it('shows a named recording older than the latest ones first', async () => {
    renderAt(`?recording=${older.id}`)
    const title = await screen.findByRole('heading', { name: 'Older memo' })
    expect(title.closest('article')).toHaveAttribute('aria-current', 'true')
    const articles = screen.getAllByRole('article')
    expect(articles.map((a) => within(a).getByRole('heading').textContent)).toEqual([
      'Older memo',
      'Latest memo',
    ])
  })

  it('marks nothing without a named recording', async () => {
    renderAt('')
    const title = await screen.findByRole('heading', { name: 'Latest memo' })
    expect(title.closest('article')).not.toHaveAttribute('aria-current')
  })

  it("shows each recording's saved memo summary when the page is loaded again", async () => {
    const ready = {
      ...latest,
      status: 'ready',
      error: null,
      memoSummary: {
        keyPoints: [],
        decisions: [{ text: 'Reject rent increase', segment: 0, start: 3 }],
        actionItems: [],
        names: [],
      },
    }
    stubFetch({
      [`GET /api/v1/orgs/${ORG}/recordings`]: () => jsonResponse({ items: [ready], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/recordings/${ready.id}`]: () =>
        jsonResponse({
          ...ready,
          transcript: 'We agreed to reject the rent increase.',
          segments: [],
        }),
    })
    renderWithRouter({
      routes: [{ path: '/voice', element: <RecordingsList orgId={ORG} appId={null} /> }],
      initialPath: '/voice',
    })
    const summary = await screen.findByRole('region', { name: 'Summary of Latest memo' })
    expect(within(summary).getByRole('list', { name: 'Decisions' })).toHaveTextContent(
      '0:03Reject rent increase',
    )
  })

  it("shows each segment's confidence, flags a low one, and says so on the memo summary", async () => {
    const ready = {
      ...latest,
      status: 'ready',
      error: null,
      memoSummary: {
        keyPoints: [],
        decisions: [{ text: 'Reject rent increase', segment: 1, start: 3 }],
        actionItems: [],
        names: [],
      },
    }
    const transcript = 'Call the landlord.\nWe reject the rent increase.'
    stubFetch({
      [`GET /api/v1/orgs/${ORG}/recordings`]: () => jsonResponse({ items: [ready], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/recordings/${ready.id}`]: () =>
        jsonResponse({
          ...ready,
          transcript,
          segments: [
            {
              start: 0,
              end: 2,
              text: 'Call the landlord.',
              startOffset: 0,
              endOffset: 18,
              confidence: 0.91,
              lowConfidence: false,
            },
            {
              start: 3,
              end: 5,
              text: 'We reject the rent increase.',
              startOffset: 19,
              endOffset: 47,
              confidence: 0.42,
              lowConfidence: true,
            },
          ],
        }),
    })
    renderWithRouter({
      routes: [{ path: '/voice', element: <RecordingsList orgId={ORG} appId={null} /> }],
      initialPath: '/voice',
    })
    const lines = await screen.findByLabelText('Transcript of Latest memo')
    expect(await within(lines).findByText('91% confidence')).toBeInTheDocument()
    expect(
      within(lines).getByText('Low confidence (42%): check against the audio'),
    ).toBeInTheDocument()
    const summary = screen.getByRole('region', { name: 'Summary of Latest memo' })
    expect(within(summary).getByRole('note')).toHaveTextContent(
      '1 of 2 segments of this memo was heard with low confidence',
    )
    expect(within(summary).getByRole('list', { name: 'Decisions' })).toHaveTextContent(
      'Reject rent increase(low confidence)',
    )
  })
})

import { act, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource } from '../test/fake-event-source'
import { renderWithRouter } from '../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../test/stub-fetch'
import { makeJob } from '../test/make-job'
import { useJob, type Job } from './jobs'

const ORG = 'org-1'
const JOB_ID = '44444444-4444-4444-8444-444444444444'
const JOB_URL = `/api/v1/orgs/${ORG}/jobs/${JOB_ID}`

const job = (status: Job['status'], progress: number): Job =>
  makeJob({ id: JOB_ID, kind: 'analysis', status, progress })

function JobState({ onEnd }: { onEnd: (job: Job) => void }) {
  const current = useJob(ORG, JOB_ID, onEnd)
  return <p>{current ? `${current.status} ${Math.round(current.progress * 100)}%` : 'Loading'}</p>
}

describe('useJob', () => {
  beforeEach(() => FakeEventSource.install())

  it('follows the job by refetching when the server refuses its event stream, quietly', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let current = job('running', 0.2)
    const { calls } = stubFetch({ [`GET ${JOB_URL}`]: () => jsonResponse(current) })
    const onEnd = vi.fn()
    renderWithRouter({ element: <JobState onEnd={onEnd} /> })
    expect(await screen.findByText('running 20%')).toBeInTheDocument()
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
    // A 429 (too many streams open) closes an EventSource for good, as a failed reconnect does.
    act(() => (FakeEventSource.opened[0] as FakeEventSource).fail())
    current = job('running', 0.6)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await screen.findByText('running 60%')).toBeInTheDocument()
    current = job('succeeded', 1)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await screen.findByText('succeeded 100%')).toBeInTheDocument()
    expect(onEnd).toHaveBeenCalledTimes(1)
    const fetchesAtEnd = calls().length
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toHaveLength(fetchesAtEnd)
    expect(FakeEventSource.opened).toHaveLength(1)
    expect(document.querySelector('[data-sonner-toast]')).toBeNull()
  })
  it('reads the job again when its first fetch failed and its stream is gone, until it answers', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let answer = () => problemResponse(503, 'The database is restarting')
    stubFetch({ [`GET ${JOB_URL}`]: () => answer() })
    const onEnd = vi.fn()
    renderWithRouter({ element: <JobState onEnd={onEnd} /> })
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
    act(() => (FakeEventSource.opened[0] as FakeEventSource).fail())
    await vi.advanceTimersByTimeAsync(1_000)
    expect(screen.getByText('Loading')).toBeInTheDocument()
    answer = () => jsonResponse(job('succeeded', 1))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await screen.findByText('succeeded 100%')).toBeInTheDocument()
    expect(onEnd).toHaveBeenCalledTimes(1)
  })
  it('does not keep reading a job the server says is gone (404)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { calls } = stubFetch({ [`GET ${JOB_URL}`]: () => problemResponse(404, 'No such job') })
    renderWithRouter({ element: <JobState onEnd={vi.fn()} /> })
    await waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
    act(() => (FakeEventSource.opened[0] as FakeEventSource).fail())
    await vi.advanceTimersByTimeAsync(1_000)
    const reads = calls().length
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls()).toHaveLength(reads)
  })
})

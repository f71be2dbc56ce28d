import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { FakeWebSocket } from '../test/fake-web-socket'
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
  it("follows the job over the organisation's realtime socket, with no event stream, to its end", async () => {
    const { calls } = stubFetch({ [`GET ${JOB_URL}`]: () => jsonResponse(job('running', 0.2)) })
    const onEnd = vi.fn()
    const { unmount } = renderWithRouter({ element: <JobState onEnd={onEnd} /> })
    const socket = await FakeWebSocket.following(JOB_ID)
    expect(socket.url).toMatch(new RegExp(`/api/v1/orgs/${ORG}/realtime$`))
    expect(await screen.findByText('running 20%')).toBeInTheDocument()
    act(() => socket.sendJob(job('running', 0.6)))
    expect(await screen.findByText('running 60%')).toBeInTheDocument()
    act(() => socket.sendJob(job('succeeded', 1)))
    expect(await screen.findByText('succeeded 100%')).toBeInTheDocument()
    expect(onEnd).toHaveBeenCalledTimes(1)
    // The server ended the follow with the final state; a late answer does not bring it back.
    expect(calls().every((call) => !call.includes('/events'))).toBe(true)
    unmount()
    expect(socket.readyState).toBe(FakeWebSocket.CLOSED)
  })

  it('reads the job once more when the socket is back after a drop (changes were not sent meanwhile), then stops polling', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let current = job('running', 0.2)
    const { calls } = stubFetch({ [`GET ${JOB_URL}`]: () => jsonResponse(current) })
    const onEnd = vi.fn()
    renderWithRouter({ element: <JobState onEnd={onEnd} /> })
    const first = await FakeWebSocket.following(JOB_ID)
    expect(await screen.findByText('running 20%')).toBeInTheDocument()
    act(() => first.close(1006))
    current = job('running', 0.6)
    const reads = calls().length
    // Reopened after 3 s, and the job followed again on it.
    await vi.advanceTimersByTimeAsync(3_000)
    expect(FakeWebSocket.opened).toHaveLength(2)
    const second = await FakeWebSocket.following(JOB_ID)
    expect(second).not.toBe(first)
    // Back: read once more (changes made while it was down were not sent), then no more polling.
    await waitFor(() => expect(calls().length).toBeGreaterThan(reads))
    expect(await screen.findByText('running 60%')).toBeInTheDocument()
    const readsWhenBack = calls().length
    await vi.advanceTimersByTimeAsync(30_000)
    expect(calls()).toHaveLength(readsWhenBack)
    act(() => second.sendJob(job('succeeded', 1)))
    expect(await screen.findByText('succeeded 100%')).toBeInTheDocument()
    expect(onEnd).toHaveBeenCalledTimes(1)
    expect(document.querySelector('[data-sonner-toast]')).toBeNull()
  })

  it('follows the job by refetching when the server closes the socket for good (4401)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let current = job('running', 0.2)
    const { calls } = stubFetch({ [`GET ${JOB_URL}`]: () => jsonResponse(current) })
    const onEnd = vi.fn()
    renderWithRouter({ element: <JobState onEnd={onEnd} /> })
    const socket = await FakeWebSocket.following(JOB_ID)
    act(() => socket.close(4401, 'Signed out'))
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
    expect(FakeWebSocket.opened).toHaveLength(1)
  })

  it('reads the job again when its first fetch failed and the socket is down, until it answers', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let answer = () => problemResponse(503, 'The database is restarting')
    stubFetch({ [`GET ${JOB_URL}`]: () => answer() })
    const onEnd = vi.fn()
    renderWithRouter({ element: <JobState onEnd={onEnd} /> })
    const socket = await FakeWebSocket.following(JOB_ID)
    act(() => socket.close(4403))
    await vi.advanceTimersByTimeAsync(1_000)
    expect(screen.getByText('Loading')).toBeInTheDocument()
    answer = () => jsonResponse(job('succeeded', 1))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await screen.findByText('succeeded 100%')).toBeInTheDocument()
    expect(onEnd).toHaveBeenCalledTimes(1)
  })

  it('reads the job over HTTP when the channel knows no such job, and does not keep reading a 404', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { calls } = stubFetch({ [`GET ${JOB_URL}`]: () => problemResponse(404, 'No such job') })
    renderWithRouter({ element: <JobState onEnd={vi.fn()} /> })
    const socket = await FakeWebSocket.following(JOB_ID)
    await waitFor(() => expect(calls()).toHaveLength(1))
    act(() =>
      socket.receive({
        type: 'error',
        code: 'job_not_found',
        detail: 'No such job',
        jobId: JOB_ID,
      }),
    )
    await waitFor(() => expect(calls()).toHaveLength(2))
    act(() => socket.close(1006))
    await vi.advanceTimersByTimeAsync(1_000)
    const reads = calls().length
    await vi.advanceTimersByTimeAsync(2_500)
    // Reconnected once (3 s) and read once more; no polling of a 404 in between or after.
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls().length).toBeLessThanOrEqual(reads + 1)
  })
})

import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { FakeWebSocket } from '../../../test/fake-web-socket'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../../test/stub-fetch'
import type { Job } from '../../../hooks/jobs'
import { makeJob } from '../../../test/make-job'
import { ExportPanel } from './export-panel'

const ORG = 'org-1'
const JOB_ID = '44444444-4444-4444-8444-444444444444'

type ExportJob = Extract<Job, { kind: 'tenant-export' }>

const job = (status: Job['status'], extra: Partial<ExportJob> = {}): ExportJob =>
  makeJob({ id: JOB_ID, kind: 'tenant-export', status, ...extra })

/** Renders the panel with no export running, clicks Export, and answers with a queued job. */
async function startExport(running: ExportJob | null = null) {
  const fetches = stubFetch({
    [`GET /api/v1/orgs/${ORG}/jobs`]: () => jsonResponse({ items: running ? [running] : [] }),
    [`POST /api/v1/orgs/${ORG}/export`]: () => jsonResponse(job('queued'), 202),
    [`GET /api/v1/orgs/${ORG}/jobs/${JOB_ID}`]: () => jsonResponse(job('running')),
  })
  renderWithRouter({ element: <ExportPanel orgId={ORG} /> })
  return fetches
}

describe('Export panel', () => {
  it("starts the export with the embeddings choice, then downloads the archive and toasts 'Export downloaded'", async () => {
    const clicked: string[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.getAttribute('href') ?? '')
    })
    const fetches = await startExport()
    const user = userEvent.setup()
    await user.click(screen.getByRole('checkbox', { name: 'Include passage embeddings' }))
    await user.click(screen.getByRole('button', { name: 'Export' }))
    const socket = await FakeWebSocket.following()
    const post = fetches.requests.find((r) => r.method === 'POST')!
    expect(await post.json()).toEqual({ includeEmbeddings: true })
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled()
    act(() =>
      socket.sendJob(
        job('succeeded', {
          progress: 1,
          result: { fileName: 'lexdesk-acme-2026-11-26.zip', sizeBytes: 10, counts: {} },
        }),
      ),
    )
    expect(await screen.findByText('Export downloaded')).toBeInTheDocument()
    expect(clicked).toEqual([`/api/v1/orgs/${ORG}/exports/${JOB_ID}/file`])
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled()
  })

  it('offers Export again after the export it started failed, with the failure still shown', async () => {
    await startExport()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Export' }))
    const socket = await FakeWebSocket.following()
    act(() => socket.sendJob(job('failed', { error: 'The export failed: the store is full.' })))
    expect(await screen.findAllByText('The export failed: the store is full.')).not.toHaveLength(0)
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled()
  })

  it('shows an export already running when the page opens, and its failure', async () => {
    await startExport(job('running', { progress: 0.5, message: 'Exported documents' }))
    const socket = await FakeWebSocket.following()
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled()
    act(() => socket.sendJob(job('failed', { error: 'The export failed: the store is full.' })))
    expect(await screen.findAllByText('The export failed: the store is full.')).not.toHaveLength(0)
  })

  it("toasts the server's refusal to start an export and offers Export again", async () => {
    stubFetch({
      [`GET /api/v1/orgs/${ORG}/jobs`]: () => jsonResponse({ items: [] }),
      [`POST /api/v1/orgs/${ORG}/export`]: () =>
        problemResponse(409, 'An export is already running.'),
    })
    renderWithRouter({ element: <ExportPanel orgId={ORG} /> })
    await userEvent.click(screen.getByRole('button', { name: 'Export' }))
    expect(await screen.findByText('An export is already running.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled()
  })
})

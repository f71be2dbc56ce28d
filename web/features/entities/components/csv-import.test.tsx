import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeWebSocket } from '../../../test/fake-web-socket'
import { FakeXhr, installFakeXhr } from '../../../test/fake-xhr'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../../test/stub-fetch'
import type { Job } from '../../../hooks/jobs'
import { CsvImport } from './csv-import'
import { makeJob } from '../../../test/make-job'

const ORG = 'org-1'
const JOB_ID = '33333333-3333-4333-8333-333333333333'

type ImportJob = Extract<Job, { kind: 'entities-import' }>

const job = (status: Job['status'], extra: Partial<ImportJob> = {}): ImportJob =>
  makeJob({
    id: JOB_ID,
    kind: 'entities-import',
    status,
    progress: status === 'queued' ? 0 : 1,
    createdAt: '2026-11-24T08:00:00.000Z',
    ...extra,
  })

/** Chooses a small CSV file and answers its upload with `status` and `body`. */
async function chooseFile(status: number, body: unknown) {
  const file = new File(['name,type\n'], 'clients.csv', { type: 'text/csv' })
  await userEvent.setup().upload(screen.getByLabelText('CSV file to import'), file)
  await waitFor(() => expect(FakeXhr.instances).toHaveLength(1))
  const xhr = FakeXhr.instances[0]!
  expect(xhr.url).toBe(`/api/v1/orgs/${ORG}/entities/import`)
  expect(((xhr.body as FormData).get('file') as File).name).toBe('clients.csv')
  act(() => xhr.respond(status, body))
}

/** Renders the import, answers the upload with a queued job and the job with `current()`. */
async function startImport(current: () => Job) {
  const onImported = vi.fn()
  stubFetch({
    [`GET /api/v1/orgs/${ORG}/jobs/${JOB_ID}`]: () => jsonResponse(current()),
  })
  renderWithRouter({
    element: <CsvImport scope={{ orgId: ORG, appId: null }} onImported={onImported} />,
  })
  await chooseFile(202, job('queued'))
  return { stream: await FakeWebSocket.following(), onImported }
}

describe('CSV import', () => {
  beforeEach(() => {
    installFakeXhr()
  })

  it("alerts 'No rows' when the server refuses the file as empty, whatever its wording", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
    stubFetch({})
    renderWithRouter({
      element: <CsvImport scope={{ orgId: ORG, appId: null }} onImported={vi.fn()} />,
    })
    await chooseFile(400, { status: 400, code: 'empty_csv', detail: 'The file holds no rows.' })
    await waitFor(() => expect(alert).toHaveBeenCalledWith('No rows'))
    expect(screen.queryByText('The file holds no rows.')).not.toBeInTheDocument()
  })

  it("toasts the server's detail for any other refusal", async () => {
    stubFetch({})
    renderWithRouter({
      element: <CsvImport scope={{ orgId: ORG, appId: null }} onImported={vi.fn()} />,
    })
    await chooseFile(413, {
      status: 413,
      code: 'file_too_large',
      detail: 'The file is larger than 100 MB.',
    })
    expect(await screen.findByText('The file is larger than 100 MB.')).toBeInTheDocument()
  })

  it("alerts 'No rows' for a file with only a header, as for an empty file, by the failure's code", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
    const { stream } = await startImport(() => job('queued'))
    // The code decides, not the wording: the server may say it otherwise.
    stream.sendJob(job('failed', { error: 'Only a header, no records.', errorCode: 'empty_csv' }))
    await waitFor(() => expect(alert).toHaveBeenCalledWith('No rows'))
    // No 'Failed' panel left behind: the alert is the whole answer.
    expect(screen.queryByText('No rows', { selector: 'p' })).not.toBeInTheDocument()
    expect(screen.queryByText('Only a header, no records.')).not.toBeInTheDocument()
  })

  it('toasts the count when the job succeeds and tells the page to reload', async () => {
    const { stream, onImported } = await startImport(() => job('queued'))
    stream.sendJob(job('succeeded', { result: { imported: 3 } }))
    expect(await screen.findByText('Imported 3 entities')).toBeInTheDocument()
    expect(onImported).toHaveBeenCalledTimes(1)
  })

  it("reports the end even when the job's first fetch answers after the stream's last event", async () => {
    // The page fetches the job as it opens its stream; here that answer (still running) is
    // slower than the job: it must not bring back a job that has already ended.
    let answerFetch: (response: Response) => void = () => {}
    const onImported = vi.fn()
    stubFetch({
      [`GET /api/v1/orgs/${ORG}/jobs/${JOB_ID}`]: () =>
        new Promise<Response>((resolve) => (answerFetch = resolve)),
    })
    renderWithRouter({
      element: <CsvImport scope={{ orgId: ORG, appId: null }} onImported={onImported} />,
    })
    await chooseFile(202, job('queued'))
    const stream = await FakeWebSocket.following()
    stream.sendJob(job('succeeded', { result: { imported: 3 } }))
    answerFetch(jsonResponse(job('running', { progress: 0.01, message: 'Reading the file' })))
    expect(await screen.findByText('Imported 3 entities')).toBeInTheDocument()
    expect(onImported).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument())
  })

  it('says a cancelled import imported nothing', async () => {
    const { stream } = await startImport(() => job('queued'))
    stream.sendJob(job('cancelled'))
    expect(await screen.findByText('Import cancelled: nothing was imported')).toBeInTheDocument()
  })

  it('still reports the end when the realtime socket is closed for good (one refetch)', async () => {
    let current = job('running', { progress: 0.5 })
    const { stream } = await startImport(() => current)
    current = job('failed', { error: 'Line 7: The name is empty. Nothing was imported.' })
    stream.close(4401)
    expect(
      await screen.findByText('Line 7: The name is empty. Nothing was imported.', {
        selector: '[data-sonner-toast] *',
      }),
    ).toBeInTheDocument()
  })

  it('shows an import already running when the page opens, and tells the page when it ends', async () => {
    const onImported = vi.fn()
    const { calls } = stubFetch({
      [`GET /api/v1/orgs/${ORG}/jobs`]: () =>
        jsonResponse({ items: [job('running', { progress: 0.25 })], total: 1 }),
      [`GET /api/v1/orgs/${ORG}/jobs/${JOB_ID}`]: () => jsonResponse(job('running')),
    })
    renderWithRouter({
      element: <CsvImport scope={{ orgId: ORG, appId: null }} onImported={onImported} />,
    })
    expect(await screen.findByRole('progressbar', { name: 'Import progress' })).toBeInTheDocument()
    const stream = await FakeWebSocket.following()
    stream.sendJob(job('succeeded', { result: { imported: 2 } }))
    expect(await screen.findByText('Imported 2 entities')).toBeInTheDocument()
    expect(onImported).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    expect(calls()).toContain(`GET /api/v1/orgs/${ORG}/jobs`)
  })
})

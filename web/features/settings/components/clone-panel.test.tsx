import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { FakeWebSocket } from '../../../test/fake-web-socket'
import { makeJob } from '../../../test/make-job'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../../test/stub-fetch'
import { ClonePanel } from './clone-panel'

const ORG = 'org-1'
const JOB_ID = '66666666-6666-4666-8666-666666666666'

const job = (status: 'queued' | 'running' | 'succeeded', extra = {}) =>
  makeJob({ id: JOB_ID, kind: 'tenant-clone', status, ...extra })

/** Renders the panel (no clone running, or `running`); answers a clone request with a job. */
function renderPanel(running: ReturnType<typeof job> | null = null) {
  const fetches = stubFetch({
    [`GET /api/v1/orgs/${ORG}/jobs`]: () => jsonResponse({ items: running ? [running] : [] }),
    [`POST /api/v1/orgs/${ORG}/clone`]: () => jsonResponse(job('queued'), 202),
    [`GET /api/v1/orgs/${ORG}/jobs/${JOB_ID}`]: () => jsonResponse(running ?? job('running')),
  })
  renderWithRouter({ element: <ClonePanel orgId={ORG} orgName="Acme LLP" /> })
  return fetches
}

describe('Clone panel', () => {
  it("clones the organization under a new name without buckets, busy until 'Clone completed' links the copy", async () => {
    const fetches = renderPanel()
    expect(screen.getByText(/A copy of Acme LLP/)).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Clone' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Name the new organization')
    await user.type(screen.getByLabelText('Name of the copy'), 'Acme Sandbox')
    await user.click(
      screen.getByRole('checkbox', { name: 'Clone storage buckets and their objects' }),
    )
    await user.click(screen.getByRole('button', { name: 'Clone' }))
    const socket = await FakeWebSocket.following()
    const post = fetches.requests.find((r) => r.method === 'POST')!
    expect(await post.json()).toEqual({
      source_org_id: ORG,
      target_org_name: 'Acme Sandbox',
      clone_buckets: false,
    })
    expect(screen.getByRole('button', { name: 'Cloning…' })).toBeDisabled()
    act(() =>
      socket.sendJob(
        job('succeeded', {
          progress: 1,
          result: { orgId: 'org-2', slug: 'acme-sandbox-9f8e', counts: { documents: 1 } },
        }),
      ),
    )
    expect(await screen.findByRole('link', { name: 'Open Acme Sandbox' })).toHaveAttribute(
      'href',
      '/dashboard/acme-sandbox-9f8e',
    )
    expect(screen.getAllByText('Clone completed').length).toBeGreaterThan(0)
    expect(screen.getByRole('button', { name: 'Clone' })).toBeEnabled()
  })

  it('shows a clone already running when the page opens, with its progress and Cancel', async () => {
    renderPanel(job('running', { progress: 0.4, message: 'Exported documents' }))
    await waitFor(() =>
      expect(screen.getByRole('progressbar', { name: 'Clone progress' })).toHaveAttribute(
        'aria-valuenow',
        '40',
      ),
    )
    expect(screen.getByRole('button', { name: 'Cloning…' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled()
  })
})

import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { FakeWebSocket } from '../../../test/fake-web-socket'
import { FakeXhr, installFakeXhr } from '../../../test/fake-xhr'
import { makeJob } from '../../../test/make-job'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../../test/stub-fetch'
import { ImportPanel, type OwnedOrg } from './import-panel'

const ORG = 'org-1'
const NEW_ORG = 'org-new'
const JOB_ID = '55555555-5555-4555-8555-555555555555'
const OWNED: OwnedOrg[] = [
  { id: ORG, name: 'Acme LLP', slug: 'acme-llp' },
  { id: NEW_ORG, name: 'Acme Copy', slug: 'acme-copy-1a2b' },
]

const job = (status: 'queued' | 'running' | 'succeeded' | 'failed', extra = {}) =>
  makeJob({ id: JOB_ID, kind: 'tenant-import', status, ...extra })

/** Renders the panel with no import running. */
function renderPanel() {
  stubFetch({
    [`GET /api/v1/orgs/${ORG}/jobs`]: () => jsonResponse({ items: [] }),
    [`GET /api/v1/orgs/${ORG}/jobs/${JOB_ID}`]: () => jsonResponse(job('running')),
  })
  renderWithRouter({ element: <ImportPanel orgId={ORG} ownedOrgs={OWNED} /> })
}

const archive = () => new File([new Uint8Array([0x50, 0x4b, 5, 6])], 'acme.zip')

describe('Import panel', () => {
  beforeEach(() => {
    installFakeXhr()
  })

  it("says 'Select a ZIP file', then 'Provide target_org_id or enable create new org', sending nothing", async () => {
    renderPanel()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Import' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Select a ZIP file')
    await user.upload(screen.getByLabelText('ZIP archive'), archive())
    await user.click(screen.getByRole('checkbox', { name: 'Create a new organization' }))
    await user.click(screen.getByRole('button', { name: 'Import' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Provide target_org_id or enable create new org',
    )
    expect(FakeXhr.instances).toHaveLength(0)
  })

  it('ties each refusal to the field it is about, and drops it once the field is fixed', async () => {
    renderPanel()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Import' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Select a ZIP file')
    const file = screen.getByLabelText('ZIP archive')
    expect(file).toHaveAttribute('aria-invalid', 'true')
    expect(file).toHaveAccessibleDescription('Select a ZIP file')
    await user.upload(file, archive())
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Name the new organization'),
    )
    expect(file).not.toHaveAttribute('aria-invalid')
    expect(screen.getByLabelText('New organization name')).toHaveAccessibleDescription(
      'Name the new organization',
    )
    await user.type(screen.getByLabelText('New organization name'), 'Acme Copy')
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    expect(FakeXhr.instances).toHaveLength(0)
  })

  it("uploads into a new organization, is busy while the job runs, then shows 'Import completed' with the counts and a link", async () => {
    renderPanel()
    const user = userEvent.setup()
    await user.upload(screen.getByLabelText('ZIP archive'), archive())
    await user.type(screen.getByLabelText('New organization name'), 'Acme Copy')
    await user.click(screen.getByRole('button', { name: 'Import' }))
    const upload = FakeXhr.instances[0]!
    expect(upload.url).toBe(`/api/v1/orgs/${ORG}/import`)
    const form = upload.body as FormData
    expect(form.get('create_org_if_missing')).toBe('true')
    expect(form.get('org_name')).toBe('Acme Copy')
    expect((form.get('zip_file') as File).name).toBe('acme.zip')
    expect(screen.getByRole('button', { name: 'Importing…' })).toBeDisabled()
    act(() => upload.respond(202, job('queued')))
    const socket = await FakeWebSocket.following()
    expect(screen.getByRole('button', { name: 'Importing…' })).toBeDisabled()
    act(() =>
      socket.sendJob(
        job('succeeded', {
          progress: 1,
          result: { orgId: NEW_ORG, counts: { documents: 2, entities: 5 }, invitations: 0 },
        }),
      ),
    )
    const done = await screen.findByRole('table', { name: 'Rows imported per table' })
    expect(
      within(done)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Table', 'Rows'])
    expect(
      within(done)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['documents2', 'entities5'])
    expect(within(done).getByRole('rowheader', { name: 'documents' })).toBeInTheDocument()
    expect(screen.getAllByText('Import completed').length).toBeGreaterThan(0)
    expect(screen.getByRole('link', { name: 'Open Acme Copy' })).toHaveAttribute(
      'href',
      '/dashboard/acme-copy-1a2b',
    )
    expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled()
  })

  it('lets a failed import be sent again, its failure still shown', async () => {
    renderPanel()
    const user = userEvent.setup()
    await user.upload(screen.getByLabelText('ZIP archive'), archive())
    await user.type(screen.getByLabelText('New organization name'), 'Acme Copy')
    await user.click(screen.getByRole('button', { name: 'Import' }))
    act(() => FakeXhr.instances[0]!.respond(202, job('queued')))
    const socket = await FakeWebSocket.following()
    act(() => socket.sendJob(job('failed', { error: 'documents.ndjson line 3: title is missing' })))
    expect(
      await screen.findAllByText('documents.ndjson line 3: title is missing'),
    ).not.toHaveLength(0)
    expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled()
    expect(screen.getByLabelText('ZIP archive')).toBeEnabled()
  })

  it('sends target_org_id for an organization the user owns', async () => {
    renderPanel()
    const user = userEvent.setup()
    await user.upload(screen.getByLabelText('ZIP archive'), archive())
    await user.click(screen.getByRole('checkbox', { name: 'Create a new organization' }))
    await user.selectOptions(screen.getByLabelText('Target organization'), 'Acme Copy')
    await user.click(screen.getByRole('button', { name: 'Import' }))
    const form = FakeXhr.instances[0]!.body as FormData
    expect(form.get('target_org_id')).toBe(NEW_ORG)
    expect(form.get('create_org_if_missing')).toBeNull()
  })
})

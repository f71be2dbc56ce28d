import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { FakeXhr, installFakeXhr } from '../../test/fake-xhr'
import type { OrgRole } from '../../lib/org-role'
import { inOrgScope } from '../../test/in-org-scope'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch } from '../../test/stub-fetch'
import { BucketsPanel } from './buckets-panel'
import type { StorageBucket, StorageObject } from './storage-api'

const ORG = 'org-1'
const STORAGE = `/api/v1/orgs/${ORG}/storage`
const BUCKET: StorageBucket = {
  id: '0b0c0000-0000-4000-8000-000000000001',
  name: 'contracts',
  public: false,
  readOnly: false,
  createdBy: 'u-1',
  createdAt: '2026-11-26T06:00:00.000Z',
}
const OBJECTS = `${STORAGE}/buckets/${BUCKET.id}/objects`

const object = (name: string, n: number): StorageObject => ({
  id: `0b0c0000-0000-4000-8000-00000000010${n}`,
  bucketId: BUCKET.id,
  name,
  size: 2048,
  contentType: 'text/plain; charset=utf-8',
  createdBy: 'u-1',
  updatedAt: '2026-11-26T06:30:00.000Z',
})

const toast = (text: string | RegExp) =>
  screen.findByText(text, { selector: '[data-sonner-toast] *' })

function renderPanel(role: OrgRole = 'owner') {
  return renderWithRouter({ element: inOrgScope(<BucketsPanel />, { orgId: ORG }, role) })
}

const VOICE: StorageBucket = {
  ...BUCKET,
  id: '00000000-0000-4000-8000-00000000f01c',
  name: 'voice-recordings',
  readOnly: true,
}

describe('BucketsPanel', () => {
  it('shows the system bucket read-only: no Delete, no upload', async () => {
    installFakeXhr()
    const user = userEvent.setup()
    stubFetch({
      [`GET ${STORAGE}/buckets`]: () => jsonResponse({ items: [VOICE] }),
      [`GET ${STORAGE}/buckets/${VOICE.id}/objects`]: () =>
        jsonResponse({
          items: [{ ...object('u-1/1.webm', 1), bucketId: VOICE.id }],
          nextCursor: null,
        }),
    })
    renderPanel()
    await screen.findByRole('option', { name: 'voice-recordings (read-only)' })
    await user.selectOptions(screen.getByLabelText('Bucket'), VOICE.id)
    const row = (await screen.findByText('u-1/1.webm')).closest('tr') as HTMLElement
    expect(within(row).getByRole('button', { name: 'Signed URL' })).toBeInTheDocument()
    expect(within(row).queryByRole('button', { name: /Delete/ })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete bucket' })).toBeNull()
    await user.upload(screen.getByLabelText('Files to upload'), new File(['x'], 'a.txt'))
    expect(await toast(/read-only/)).toBeInTheDocument()
    expect(FakeXhr.instances).toHaveLength(0)
  })

  it("says why a bucket's files could not be listed, not 'No files here yet.'", async () => {
    const user = userEvent.setup()
    stubFetch({
      [`GET ${STORAGE}/buckets`]: () => jsonResponse({ items: [BUCKET] }),
      [`GET ${OBJECTS}`]: () => problemResponse(503, 'The storage is offline'),
    })
    renderPanel()
    await screen.findByRole('option', { name: 'contracts' })
    await user.selectOptions(screen.getByLabelText('Bucket'), BUCKET.id)
    expect(
      await screen.findByText('The files could not be loaded: The storage is offline'),
    ).toHaveAttribute('role', 'alert')
    expect(screen.queryByText('No files here yet.')).toBeNull()
  })

  it('offers a member no bucket creation or deletion, the admin-only requests the server refuses', async () => {
    const user = userEvent.setup()
    stubFetch({
      [`GET ${STORAGE}/buckets`]: () => jsonResponse({ items: [BUCKET] }),
      [`GET ${OBJECTS}`]: () => jsonResponse({ items: [], nextCursor: null }),
    })
    renderPanel('member')
    await screen.findByRole('option', { name: 'contracts' })
    await user.selectOptions(screen.getByLabelText('Bucket'), BUCKET.id)
    expect(screen.getByText('Owners and admins create and delete buckets.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Bucket' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete bucket' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument()
  })

  it('says why the buckets could not be listed', async () => {
    stubFetch({ [`GET ${STORAGE}/buckets`]: () => problemResponse(403, 'Owners only') })
    renderPanel()
    expect(await screen.findByText('The buckets could not be loaded: Owners only')).toHaveAttribute(
      'role',
      'alert',
    )
  })

  it('says to pick a bucket first when Upload is pressed without one, and opens no file chooser', async () => {
    const user = userEvent.setup()
    stubFetch({ [`GET ${STORAGE}/buckets`]: () => jsonResponse({ items: [BUCKET] }) })
    renderPanel()
    const chooser = screen.getByLabelText('Files to upload')
    const opened = vi.fn()
    chooser.addEventListener('click', opened)
    await user.click(screen.getByRole('button', { name: 'Upload' }))
    expect(await toast('Pick a bucket first')).toBeInTheDocument()
    expect(opened).not.toHaveBeenCalled()
  })

  it('says to pick a bucket first when files are chosen without one, and sends nothing', async () => {
    installFakeXhr()
    const user = userEvent.setup()
    stubFetch({ [`GET ${STORAGE}/buckets`]: () => jsonResponse({ items: [BUCKET] }) })
    renderPanel()
    await user.upload(screen.getByLabelText('Files to upload'), new File(['x'], 'a.txt'))
    expect(await toast('Pick a bucket first')).toBeInTheDocument()
    expect(FakeXhr.instances).toHaveLength(0)
  })

  it('creates a bucket from the suggested name and picks it', async () => {
    const user = userEvent.setup()
    let created: StorageBucket[] = []
    const { requests } = stubFetch({
      [`GET ${STORAGE}/buckets`]: () => jsonResponse({ items: created }),
      [`POST ${STORAGE}/buckets`]: () => {
        created = [{ ...BUCKET, name: 'org-1-public', public: true }]
        return jsonResponse(created[0], 201)
      },
      [`GET ${OBJECTS}`]: () => jsonResponse({ items: [], nextCursor: null }),
    })
    renderPanel()
    await user.click(screen.getByRole('button', { name: 'Bucket' }))
    const name = screen.getByLabelText('Bucket name')
    expect(name).toHaveValue('org-1-private')
    await user.clear(name)
    await user.type(name, 'org-1-public')
    await user.click(screen.getByRole('button', { name: 'Create bucket' }))
    expect(await toast('Bucket created')).toBeInTheDocument()
    const sent = requests.find((r) => r.method === 'POST')
    expect(await sent?.json()).toEqual({ name: 'org-1-public', public: true })
    await waitFor(() => expect(screen.getByLabelText('Bucket')).toHaveValue(BUCKET.id))
    expect(await screen.findByText('No files here yet.')).toBeInTheDocument()
  })

  it('uploads several files under the prefix with progress, lists, signs and deletes', async () => {
    installFakeXhr()
    const user = userEvent.setup()
    let items = [object('a.txt', 1)]
    const { calls } = stubFetch({
      [`GET ${STORAGE}/buckets`]: () => jsonResponse({ items: [BUCKET] }),
      [`GET ${OBJECTS}`]: () => jsonResponse({ items, nextCursor: null }),
      [`POST ${STORAGE}/objects/${items[0]!.id}/signed-url`]: () =>
        jsonResponse({ url: 'http://localhost/api/blob-links?key=k', expiresAt: 'later' }),
      [`DELETE ${STORAGE}/objects/${items[0]!.id}`]: () => {
        items = []
        return new Response(null, { status: 204 })
      },
    })
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    renderPanel()
    await screen.findByRole('option', { name: 'contracts' })
    await user.selectOptions(screen.getByLabelText('Bucket'), BUCKET.id)
    expect(await screen.findByText('a.txt')).toBeInTheDocument()
    expect(screen.getByText(/2 kB/)).toBeInTheDocument()

    await user.type(screen.getByLabelText('Prefix'), 'deeds/')
    await user.upload(screen.getByLabelText('Files to upload'), [
      new File(['one'], 'one.txt'),
      new File(['two'], 'two.txt'),
    ])
    const first = FakeXhr.instances[0]!
    expect(first.url).toBe(OBJECTS)
    expect((first.body as FormData).get('prefix')).toBe('deeds/')
    first.progress(3, 3)
    expect(await screen.findByLabelText('Upload progress')).toBeInTheDocument()
    // One upload at a time: Upload is busy until the last file is sent.
    expect(screen.getByRole('button', { name: 'Uploading…' })).toBeDisabled()
    first.respond(201, object('deeds/one.txt', 2))
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2))
    FakeXhr.instances[1]!.respond(201, object('deeds/two.txt', 3))
    expect(await toast('Uploaded')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Upload' })).toBeEnabled()

    // The list under 'deeds/' stays put (clearing the prefix would replace it after the typing
    // pause, 300 ms, which a loaded machine may reach between finding a row and clicking it).
    const row = (await screen.findByText('a.txt')).closest('tr') as HTMLElement
    await user.click(within(row).getByRole('button', { name: 'Signed URL' }))
    expect(await toast('Signed URL copied')).toBeInTheDocument()
    expect(await navigator.clipboard.readText()).toBe('http://localhost/api/blob-links?key=k')

    await user.click(within(row).getByRole('button', { name: 'Delete a.txt' }))
    expect(window.confirm).toHaveBeenCalledWith('Delete this file?')
    expect(await screen.findByText('No files here yet.')).toBeInTheDocument()
    expect(calls()).toContain(`DELETE ${STORAGE}/objects/${object('a.txt', 1).id}`)
  })
})

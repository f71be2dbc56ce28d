import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { makeDocumentDetail } from '../../../test/document-factories'
import { FakeXhr, installFakeXhr } from '../../../test/fake-xhr'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../../test/stub-fetch'
import { AddDocumentCard } from './add-document-card'
import type { DocumentDetail } from '../api/types'

const ORG = 'org-1'

/** A lease stored as type 'contract', the form's default type. */
function makeLease(overrides: Partial<DocumentDetail> = {}): DocumentDetail {
  return makeDocumentDetail('The tenant shall pay rent monthly.', {
    id: 'doc-9',
    title: 'Lease',
    documentType: 'contract',
    ...overrides,
  })
}

function pdf(name: string, sizeBytes?: number): File {
  const file = new File(['%PDF-1.7 test'], name, { type: 'application/pdf' })
  if (sizeBytes !== undefined) Object.defineProperty(file, 'size', { value: sizeBytes })
  return file
}

/** Renders the card for ORG with app `appId` chosen in the sidebar (null: 'All apps'). */
function renderCard(appId: string | null = null) {
  const onAdded = vi.fn()
  renderWithRouter({ element: <AddDocumentCard scope={{ orgId: ORG, appId }} onAdded={onAdded} /> })
  return { onAdded }
}

beforeEach(() => {
  installFakeXhr()
})

describe('AddDocumentCard paste', () => {
  it("refuses empty text with 'Please paste a document to analyze' and sends nothing", async () => {
    const user = userEvent.setup()
    const { requests } = stubFetch({})
    renderCard()
    await user.click(screen.getByRole('tab', { name: 'Paste text' }))
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Empty one')
    await user.type(screen.getByRole('textbox', { name: 'Document text' }), '   ')

    await user.click(screen.getByRole('button', { name: 'Add pasted text' }))

    expect(await screen.findByText('Please paste a document to analyze')).toBeInTheDocument()
    expect(requests).toHaveLength(0)
  })

  it('stores pasted text with its title and the default type contract, then clears the form', async () => {
    const user = userEvent.setup()
    const created = makeLease()
    const { requests } = stubFetch({
      [`POST /api/v1/orgs/${ORG}/documents/text`]: () => jsonResponse(created, 201),
    })
    const { onAdded } = renderCard()
    expect(screen.getByRole('combobox', { name: 'Document type' })).toHaveDisplayValue('Contract')
    await user.click(screen.getByRole('tab', { name: 'Paste text' }))
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Lease')
    await user.type(screen.getByRole('textbox', { name: 'Document text' }), created.content)

    await user.click(screen.getByRole('button', { name: 'Add pasted text' }))

    await waitFor(() => expect(onAdded).toHaveBeenCalledWith(created))
    expect(await requests[0]!.json()).toEqual({
      title: 'Lease',
      content: created.content,
      documentType: 'contract',
    })
    expect(screen.getByRole('textbox', { name: 'Document text' })).toHaveValue('')
  })

  it('files pasted text under the app chosen in the sidebar', async () => {
    const user = userEvent.setup()
    const { requests } = stubFetch({
      [`POST /api/v1/orgs/${ORG}/documents/text`]: () => jsonResponse(makeLease(), 201),
    })
    const { onAdded } = renderCard('app-7')
    await user.click(screen.getByRole('tab', { name: 'Paste text' }))
    await user.type(screen.getByRole('textbox', { name: 'Document text' }), 'Rent is due monthly.')
    await user.click(screen.getByRole('button', { name: 'Add pasted text' }))
    await waitFor(() => expect(onAdded).toHaveBeenCalled())
    expect(await requests[0]!.json()).toMatchObject({ appId: 'app-7' })
  })
})

describe('AddDocumentCard upload', () => {
  it('refuses a file over 25 MB on the client with a toast and no request', async () => {
    const user = userEvent.setup()
    renderCard()

    await user.upload(
      screen.getByLabelText('Upload a document'),
      pdf('huge.pdf', 25 * 1024 * 1024 + 1),
    )

    expect(await screen.findByText('huge.pdf is larger than 25 MB.')).toBeInTheDocument()
    expect(FakeXhr.instances).toHaveLength(0)
  })

  it('uploads a chosen file as multipart with a progress bar, then reports the document', async () => {
    const user = userEvent.setup()
    const { onAdded } = renderCard()

    await user.upload(screen.getByLabelText('Upload a document'), pdf('Acme NDA.pdf'))

    const xhr = FakeXhr.instances[0]!
    expect(xhr.method).toBe('POST')
    expect(xhr.url).toBe(`/api/v1/orgs/${ORG}/documents`)
    const form = xhr.body as FormData
    expect((form.get('file') as File).name).toBe('Acme NDA.pdf')
    // No title: the server takes it from the PDF itself, else the file name (upload-title.ts).
    expect(form.has('title')).toBe(false)
    expect(form.get('documentType')).toBe('contract')
    expect(form.has('appId')).toBe(false)

    act(() => xhr.progress(40, 100))
    expect(screen.getByRole('progressbar', { name: 'Uploading Acme NDA.pdf' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    )

    const created = makeLease({ title: 'Acme NDA', fileName: 'Acme NDA.pdf' })
    act(() => xhr.respond(201, created))
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith(created))
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
  })

  it("shows the server's problem detail when it refuses the file", async () => {
    const user = userEvent.setup()
    renderCard()
    await user.upload(screen.getByLabelText('Upload a document'), pdf('scan.pdf'))

    act(() =>
      FakeXhr.instances[0]!.respond(415, {
        type: 'about:blank',
        title: 'Unsupported Media Type',
        status: 415,
        detail: 'scan.pdf is a image/png file. Upload a PDF, DOCX or plain-text file.',
      }),
    )

    expect(
      await screen.findByText(
        'scan.pdf is a image/png file. Upload a PDF, DOCX or plain-text file.',
      ),
    ).toBeInTheDocument()
  })

  it('files the upload under the app chosen in the sidebar', async () => {
    const user = userEvent.setup()
    renderCard('app-7')
    await user.upload(screen.getByLabelText('Upload a document'), pdf('Brief.pdf'))
    expect((FakeXhr.instances[0]!.body as FormData).get('appId')).toBe('app-7')
  })

  it('uploads a file dropped on the drop area', async () => {
    renderCard()
    fireEvent.drop(screen.getByTestId('upload-dropzone'), {
      dataTransfer: { files: [pdf('dropped.pdf')] },
    })
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1))
    expect(((FakeXhr.instances[0]!.body as FormData).get('file') as File).name).toBe('dropped.pdf')
  })

  it('refuses a dropped file of an unsupported type', async () => {
    renderCard()
    const image = new File(['png'], 'photo.png', { type: 'image/png' })
    fireEvent.drop(screen.getByTestId('upload-dropzone'), { dataTransfer: { files: [image] } })
    expect(
      await screen.findByText('photo.png is not a PDF, DOCX or plain-text file.'),
    ).toBeInTheDocument()
    expect(FakeXhr.instances).toHaveLength(0)
  })

  it('uploads several chosen files three at a time, each with its own progress and outcome', async () => {
    const user = userEvent.setup()
    const { onAdded } = renderCard()
    const names = ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf', 'e.pdf']
    await user.upload(
      screen.getByLabelText('Upload a document'),
      names.map((name) => pdf(name)),
    )
    // Three sent, two waiting their turn.
    expect(FakeXhr.instances).toHaveLength(3)
    const uploads = screen.getByRole('list', { name: 'Uploads' })
    const row = (name: string) => within(uploads).getByText(name).closest('li') as HTMLElement
    expect(row('d.pdf')).toHaveTextContent('Waiting')
    act(() => FakeXhr.instances[0]!.progress(30, 100))
    act(() => FakeXhr.instances[1]!.progress(70, 100))
    expect(screen.getByRole('progressbar', { name: 'Uploading a.pdf' })).toHaveAttribute(
      'aria-valuenow',
      '30',
    )
    expect(screen.getByRole('progressbar', { name: 'Uploading b.pdf' })).toHaveAttribute(
      'aria-valuenow',
      '70',
    )
    act(() =>
      FakeXhr.instances[1]!.respond(415, {
        type: 'about:blank',
        title: 'Unsupported Media Type',
        status: 415,
        detail: 'b.pdf is a image/png file. Upload a PDF, DOCX or plain-text file.',
      }),
    )
    // One ended: the fourth starts.
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(4))
    expect(row('b.pdf')).toHaveTextContent('Failed')
    expect(row('b.pdf')).toHaveTextContent('b.pdf is a image/png file.')
    const added = makeLease({ id: 'doc-a', title: 'Agreement A', fileName: 'a.pdf' })
    act(() => FakeXhr.instances[0]!.respond(201, added))
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(5))
    expect(
      await within(row('a.pdf')).findByRole('button', { name: 'Open Agreement A' }),
    ).toBeInTheDocument()
    expect(((FakeXhr.instances[4]!.body as FormData).get('file') as File).name).toBe('e.pdf')
    // Several files: none is opened by itself; Open opens it.
    expect(onAdded).not.toHaveBeenCalled()
    await user.click(within(row('a.pdf')).getByRole('button', { name: 'Open Agreement A' }))
    expect(onAdded).toHaveBeenCalledWith(added)
  })

  it('uploads every file dropped at once, and refuses the unsupported ones without sending them', async () => {
    renderCard()
    const image = new File(['png'], 'photo.png', { type: 'image/png' })
    fireEvent.drop(screen.getByTestId('upload-dropzone'), {
      dataTransfer: { files: [pdf('one.pdf'), image, pdf('two.pdf')] },
    })
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2))
    expect(
      FakeXhr.instances.map((xhr) => ((xhr.body as FormData).get('file') as File).name),
    ).toEqual(['one.pdf', 'two.pdf'])
    expect(
      screen.getByText('photo.png is not a PDF, DOCX or plain-text file.').closest('li'),
    ).toHaveTextContent('Failed')
  })
})

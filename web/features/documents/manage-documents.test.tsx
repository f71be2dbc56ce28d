import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { makeDocumentCard, makeDocumentDetail } from '../../test/document-factories'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, problemResponse, stubFetch, type FetchRoutes } from '../../test/stub-fetch'
import { DocumentsScreen } from './documents-screen'
import type { DocumentCard } from './api/types'

const ORG = 'org-1'
const BASE = `/api/v1/orgs/${ORG}/documents`

/**
 * A library held by the stub "server": listing answers its current cards, so a write the screen
 * makes shows in the next list it asks for. `routes` adds or overrides handlers.
 */
function stubLibrary(cards: DocumentCard[], routes: FetchRoutes = {}) {
  let current = cards
  const library = {
    set: (next: DocumentCard[]) => {
      current = next
    },
    ...stubFetch({
      [`GET ${BASE}`]: () =>
        jsonResponse({ items: current, total: current.length, types: ['nda'] }),
      ...routes,
    }),
  }
  return library
}

const acme = makeDocumentCard({ id: 'doc-1', title: 'Acme NDA' })
const beta = makeDocumentCard({ id: 'doc-2', title: 'Beta lease' })
const gamma = makeDocumentCard({ id: 'doc-3', title: 'Gamma memo' })

function renderScreen(initialPath = '/') {
  return renderWithRouter({
    routes: [
      {
        path: '/',
        element: (
          <DocumentsScreen scope={{ orgId: ORG, appId: null }} renderAnalysis={() => null} />
        ),
      },
    ],
    initialPath,
  })
}

async function titlesShown(): Promise<string[]> {
  const list = await screen.findByRole('list', { name: 'Documents' })
  return within(list)
    .getAllByRole('listitem')
    .map((item) => within(item).getAllByRole('button')[0]?.textContent ?? '')
}

describe('renaming a document', () => {
  it('renames from the library card through a dialog, then shows the new title and a toast', async () => {
    const user = userEvent.setup()
    const { requests, set } = stubLibrary([acme, beta], {
      [`PATCH ${BASE}/doc-1`]: async (req) => {
        const { title } = (await req.json()) as { title: string }
        set([{ ...acme, title }, beta])
        return jsonResponse(makeDocumentDetail('text', { title }))
      },
    })
    renderScreen()
    await user.click(await screen.findByRole('button', { name: 'Rename Acme NDA' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rename document' })
    const field = within(dialog).getByRole('textbox', { name: 'Title' })
    expect(field).toHaveValue('Acme NDA')
    await user.clear(field)
    await user.type(field, 'Acme mutual NDA (signed){Enter}')

    expect(await screen.findByText('Document renamed')).toBeInTheDocument()
    await waitFor(async () =>
      expect(await titlesShown()).toEqual(['Acme mutual NDA (signed)', 'Beta lease']),
    )
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    const patch = requests.find((r) => r.method === 'PATCH')
    expect(await patch?.json()).toEqual({ title: 'Acme mutual NDA (signed)' })
  })

  it('opens the rename dialog with F2 on a focused card and cancels with Escape, sending nothing', async () => {
    const user = userEvent.setup()
    const { calls } = stubLibrary([acme])
    renderScreen()
    ;(await screen.findByRole('button', { name: 'Acme NDA' })).focus()
    await user.keyboard('{F2}')
    const field = await screen.findByRole('textbox', { name: 'Title' })
    expect(field).toHaveFocus()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls().filter((c) => !c.startsWith('GET'))).toEqual([])
  })

  it("keeps the old title and toasts the server's reason when the rename is refused", async () => {
    const user = userEvent.setup()
    stubLibrary([acme], {
      [`PATCH ${BASE}/doc-1`]: () =>
        problemResponse(
          403,
          'Members can rename only documents they added; ask an admin to rename this one.',
        ),
    })
    renderScreen()
    await user.click(await screen.findByRole('button', { name: 'Rename Acme NDA' }))
    await user.type(await screen.findByRole('textbox', { name: 'Title' }), 'Mine{Enter}')
    expect(await screen.findByText('Could not rename the document')).toBeInTheDocument()
    expect(screen.getByText(/Members can rename only documents they added/)).toBeInTheDocument()
    // The dialog stays open with what was typed, so the user can cancel or try again.
    expect(screen.getByRole('dialog', { name: 'Rename document' })).toBeInTheDocument()
  })

  it('renames from the document page', async () => {
    const user = userEvent.setup()
    stubLibrary([acme], {
      [`GET ${BASE}/doc-1`]: () => jsonResponse(makeDocumentDetail('Some text.')),
      [`PATCH ${BASE}/doc-1`]: () =>
        jsonResponse(makeDocumentDetail('Some text.', { title: 'Acme NDA 2024' })),
    })
    renderScreen('/?document=doc-1')
    const heading = await screen.findByRole('heading', { name: 'Acme NDA', level: 2 })
    const page = heading.closest('[data-slot="card"]') as HTMLElement
    await user.click(within(page).getByRole('button', { name: 'Rename Acme NDA' }))
    const field = await screen.findByRole('textbox', { name: 'Title' })
    await user.clear(field)
    await user.type(field, 'Acme NDA 2024{Enter}')
    expect(await screen.findByText('Document renamed')).toBeInTheDocument()
  })
})

describe('deleting documents', () => {
  it('deletes from the card after a confirm, then drops the card', async () => {
    const user = userEvent.setup()
    const { set, calls } = stubLibrary([acme, beta], {
      [`DELETE ${BASE}/doc-1`]: () => {
        set([beta])
        return new Response(null, { status: 204 })
      },
    })
    renderScreen()
    await user.click(await screen.findByRole('button', { name: 'Delete Acme NDA' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Acme NDA”?' })
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))

    expect(await screen.findByText('Deleted 1 document')).toBeInTheDocument()
    await waitFor(async () => expect(await titlesShown()).toEqual(['Beta lease']))
    expect(calls()).toContain(`DELETE ${BASE}/doc-1`)
  })

  it('deletes nothing when the confirm is cancelled (Delete key, then Escape)', async () => {
    const user = userEvent.setup()
    const { calls } = stubLibrary([acme])
    renderScreen()
    ;(await screen.findByRole('button', { name: 'Acme NDA' })).focus()
    await user.keyboard('{Delete}')
    await screen.findByRole('dialog', { name: 'Delete “Acme NDA”?' })
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls().some((c) => c.startsWith('DELETE'))).toBe(false)
    expect(await titlesShown()).toEqual(['Acme NDA'])
  })

  it('deletes the open document from its page and closes it', async () => {
    const user = userEvent.setup()
    const { set } = stubLibrary([acme, beta], {
      [`GET ${BASE}/doc-1`]: () => jsonResponse(makeDocumentDetail('Some text.')),
      [`DELETE ${BASE}/doc-1`]: () => {
        set([beta])
        return new Response(null, { status: 204 })
      },
    })
    const { router } = renderScreen('/?document=doc-1')
    const heading = await screen.findByRole('heading', { name: 'Acme NDA', level: 2 })
    const page = heading.closest('[data-slot="card"]') as HTMLElement
    await user.click(within(page).getByRole('button', { name: 'Delete Acme NDA' }))
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    )
    expect(await screen.findByText(/Open a document from the library/)).toBeInTheDocument()
    expect(router.state.location.search).toBe('')
    await waitFor(async () => expect(await titlesShown()).toEqual(['Beta lease']))
  })

  it('bulk-deletes the ticked documents in one request after one confirm', async () => {
    const user = userEvent.setup()
    const { set, requests } = stubLibrary([acme, beta, gamma], {
      [`POST ${BASE}/bulk-delete`]: () => {
        set([beta])
        return jsonResponse({ deleted: 2 })
      },
    })
    renderScreen()
    await user.click(await screen.findByRole('checkbox', { name: 'Select Acme NDA' }))
    await user.click(screen.getByRole('checkbox', { name: 'Select Gamma memo' }))
    expect(screen.getByText('2 selected')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Delete selected' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 documents?' })
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))

    expect(await screen.findByText('Deleted 2 documents')).toBeInTheDocument()
    await waitFor(async () => expect(await titlesShown()).toEqual(['Beta lease']))
    const bulk = requests.filter((r) => r.method === 'POST')
    expect(bulk).toHaveLength(1)
    expect(await bulk[0]?.json()).toEqual({ ids: ['doc-1', 'doc-3'] })
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument()
  })

  it("ticks every card with 'Select all' and keeps them all when the server refuses", async () => {
    const user = userEvent.setup()
    stubLibrary([acme, beta], {
      [`POST ${BASE}/bulk-delete`]: () =>
        problemResponse(
          403,
          'Members can delete only documents they added; ask an admin to delete this one.',
        ),
    })
    renderScreen()
    await user.click(await screen.findByRole('checkbox', { name: 'Select all' }))
    expect(screen.getByRole('checkbox', { name: 'Select Acme NDA' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Select Beta lease' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Delete selected' }))
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete 2 documents?' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    )
    expect(await screen.findByText('Could not delete the documents')).toBeInTheDocument()
    expect(screen.getByText(/Members can delete only documents they added/)).toBeInTheDocument()
    expect(await titlesShown()).toEqual(['Acme NDA', 'Beta lease'])
  })
})

describe('long titles', () => {
  it('cuts a long title on its card to two lines and gives the full title on hover', async () => {
    const title =
      `Framework agreement for the supply of laboratory instruments ${'and services '.repeat(12)}`.trim()
    stubLibrary([makeDocumentCard({ title })])
    renderScreen()
    const open = await screen.findByRole('button', { name: title })
    expect(open).toHaveAttribute('title', title)
    expect(open).toHaveClass('line-clamp-2')
  })
})

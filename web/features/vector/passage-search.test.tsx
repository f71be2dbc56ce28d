import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithRouter } from '../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../test/stub-fetch'
import { PassageSearch } from './passage-search'

const ORG = 'org-1'
const PASSAGE = {
  id: 'p-1',
  documentId: 'd-1',
  documentTitle: 'NDA',
  content: 'The Receiving Party shall return or destroy all copies.',
  start: 10,
  end: 65,
}

describe('Search by meaning', () => {
  it('says a blank question is missing and sends nothing, then finds passages for a trimmed one', async () => {
    const { requests } = stubFetch({
      [`POST /api/v1/orgs/${ORG}/search`]: () => jsonResponse({ items: [PASSAGE] }),
    })
    const onOpenPassage = vi.fn()
    renderWithRouter({
      element: <PassageSearch scope={{ orgId: ORG, appId: null }} onOpenPassage={onOpenPassage} />,
    })
    const question = screen.getByRole('searchbox', { name: 'Search by meaning' })
    await userEvent.type(question, '   ')
    await userEvent.click(screen.getByRole('button', { name: 'Find' }))
    expect(await screen.findByText('Describe what you are looking for.')).toBeInTheDocument()
    expect(question).toHaveAttribute('aria-invalid', 'true')
    expect(question).toHaveAccessibleDescription('Describe what you are looking for.')
    expect(requests).toHaveLength(0)

    await userEvent.type(question, 'destroy copies ')
    await userEvent.click(screen.getByRole('button', { name: 'Find' }))
    await userEvent.click(await screen.findByRole('button', { name: /NDA/ }))
    expect(onOpenPassage).toHaveBeenCalledWith('d-1', { start: 10, end: 65 })
    expect(await requests[0]?.json()).toEqual({ query: 'destroy copies', k: 8 })
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { inOrgScope } from '../../../test/in-org-scope'
import { renderWithRouter } from '../../../test/render-with-router'
import { jsonResponse, stubFetch } from '../../../test/stub-fetch'
import { CreateAppDialog } from './create-app-dialog'

describe('CreateAppDialog', () => {
  it('lower-cases the slug as typed and refuses one with spaces, saying why, before asking the server', async () => {
    const sent: unknown[] = []
    stubFetch({
      'POST /api/v1/orgs/org-1/apps': async (request) => {
        sent.push(await request.json())
        return jsonResponse({ id: 'app-1', slug: 'litigation', orgId: 'org-1' }, 201)
      },
    })
    const user = userEvent.setup()
    renderWithRouter({ element: inOrgScope(<CreateAppDialog />) })
    await user.click(screen.getByRole('button', { name: 'New app' }))
    const slug = await screen.findByLabelText('Slug')
    expect(screen.getByRole('button', { name: 'Create app' })).toBeDisabled()
    await user.type(slug, 'Lit Gation')
    expect(slug).toHaveValue('lit gation')
    await user.click(screen.getByRole('button', { name: 'Create app' }))
    expect(await screen.findByText('Lower-case letters, digits and dashes only.')).toBeVisible()
    expect(slug).toHaveAttribute('aria-invalid', 'true')
    expect(sent).toEqual([])
    await user.clear(slug)
    await user.type(slug, 'Litigation{Enter}')
    await expect.poll(() => sent).toEqual([{ slug: 'litigation' }])
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithRouter } from '../../../test/render-with-router'
import { stubFetch } from '../../../test/stub-fetch'
import { CreateOrgForm } from './create-org-form'

describe('CreateOrgForm', () => {
  it("shows the server's reason when a new organization is refused past the organization limit", async () => {
    const detail =
      'You already own 10 organizations, the most one person may own on this server (MAX_ORGANIZATIONS_PER_USER).'
    // The server's answer (server/auth/auth-routes.ts): a problem with `message` for better-auth's client.
    const body = { status: 403, code: 'organization_limit_reached', detail, message: detail }
    stubFetch({
      'POST /api/auth/organization/create': () =>
        new Response(JSON.stringify({ type: 'about:blank', title: 'Forbidden', ...body }), {
          status: 403,
          headers: { 'content-type': 'application/problem+json' },
        }),
    })
    renderWithRouter({ element: <CreateOrgForm /> })
    await userEvent.type(screen.getByLabelText('Organization name'), 'Eleventh Firm')
    await userEvent.click(screen.getByRole('button', { name: 'Create' }))
    expect(await screen.findByText(detail, { selector: '[data-sonner-toast] *' })).toBeVisible()
    expect(screen.getByRole('button', { name: 'Create' })).toBeEnabled()
  })
})

import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderWithRouter } from '../../test/render-with-router'
import { resetAuthSession } from '../../test/reset-auth-session'
import { jsonResponse, problemResponse, stubFetch, type FetchRoutes } from '../../test/stub-fetch'
import { InvitationPage } from './invitation-page'

const SESSION = {
  session: {
    id: 's1',
    userId: 'u1',
    token: 't',
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  },
  user: {
    id: 'u1',
    name: 'Ines',
    email: 'ines@firm.test',
    emailVerified: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  },
}
const INVITATION = {
  id: 'inv-1',
  organizationId: 'org-1',
  organizationName: 'Acme Law',
  organizationSlug: 'acme-law',
  inviterEmail: 'olivia@firm.test',
  email: 'ines@firm.test',
  role: 'admin',
  status: 'pending',
  expiresAt: '2099-01-01T00:00:00.000Z',
  inviterId: 'u0',
  createdAt: '2025-01-01T00:00:00.000Z',
}

function renderAt(routes: FetchRoutes) {
  const stub = stubFetch(routes)
  resetAuthSession()
  renderWithRouter({
    routes: [
      { path: '/invitations/:invitationId', element: <InvitationPage /> },
      { path: '/dashboard/:orgSlug', element: <p>Acme dashboard</p> },
    ],
    initialPath: '/invitations/inv-1',
  })
  return stub
}

describe('InvitationPage', () => {
  it('asks a signed-out invitee for their address and sends a link back to the invitation', async () => {
    const stub = renderAt({
      'GET /api/auth/get-session': () => jsonResponse(null),
      'POST /api/auth/sign-in/magic-link': () => jsonResponse({ status: true }),
    })
    await userEvent.type(await screen.findByLabelText('Email'), 'ines@firm.test')
    await userEvent.click(screen.getByRole('button', { name: 'Send Secure Link' }))
    expect(await screen.findByText('Check your email')).toBeInTheDocument()
    const request = stub.requests.find((r) => r.url.endsWith('/api/auth/sign-in/magic-link'))
    expect(await request?.json()).toEqual({
      email: 'ines@firm.test',
      callbackURL: '/invitations/inv-1',
      errorCallbackURL: '/invitations/inv-1',
    })
  })

  it('shows the invitation to the signed-in invitee and joins with one click', async () => {
    const stub = renderAt({
      'GET /api/auth/get-session': () => jsonResponse(SESSION),
      'GET /api/auth/organization/get-invitation': () => jsonResponse(INVITATION),
      'POST /api/auth/organization/accept-invitation': () =>
        jsonResponse({ invitation: INVITATION, member: { id: 'm1' } }),
    })
    expect(await screen.findByText('Acme Law')).toBeInTheDocument()
    expect(screen.getByText('admin')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Join Acme Law' }))
    expect(await screen.findByText('Acme dashboard')).toBeInTheDocument()
    expect(stub.calls()).toContain('POST /api/auth/organization/accept-invitation')
  })

  it('shows why an expired or cancelled invitation cannot be used, and offers no Join', async () => {
    renderAt({
      'GET /api/auth/get-session': () => jsonResponse(SESSION),
      'GET /api/auth/organization/get-invitation': () =>
        problemResponse(400, 'Invitation not found!'),
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('Invitation not found!')
    expect(screen.queryByRole('button', { name: /Join/ })).toBeNull()
  })

  it('says the invitation is loading while it is read', async () => {
    renderAt({
      'GET /api/auth/get-session': () => jsonResponse(SESSION),
      'GET /api/auth/organization/get-invitation': () => new Promise<Response>(() => {}),
    })
    expect(await screen.findByText('Loading the invitation…')).toBeInTheDocument()
  })

  it('frees Join again and says why when the network fails while joining', async () => {
    renderAt({
      'GET /api/auth/get-session': () => jsonResponse(SESSION),
      'GET /api/auth/organization/get-invitation': () => jsonResponse(INVITATION),
      'POST /api/auth/organization/accept-invitation': () =>
        Promise.reject(new TypeError('Failed to fetch')),
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Join Acme Law' }))
    expect(
      await screen.findByText('Failed to fetch', { selector: '[data-sonner-toast] *' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Join Acme Law' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Decline' })).toBeEnabled()
  })

  it('declines the invitation: nothing joined, the invitation gone from the page', async () => {
    const stub = renderAt({
      'GET /api/auth/get-session': () => jsonResponse(SESSION),
      'GET /api/auth/organization/get-invitation': () => jsonResponse(INVITATION),
      'POST /api/auth/organization/reject-invitation': () =>
        jsonResponse({ invitation: { ...INVITATION, status: 'rejected' }, member: null }),
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }))
    expect(await screen.findByText('You declined the invitation to Acme Law')).toBeInTheDocument()
    expect(screen.getByText(/You declined this invitation/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Join/ })).toBeNull()
    const request = stub.requests.find((r) =>
      r.url.endsWith('/api/auth/organization/reject-invitation'),
    )
    expect(await request?.json()).toEqual({ invitationId: 'inv-1' })
    expect(stub.calls()).not.toContain('POST /api/auth/organization/accept-invitation')
  })
})

import { describe, expect, it } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderWithRouter } from '../test/render-with-router'
import { resetAuthSession } from '../test/reset-auth-session'
import { jsonResponse, stubFetch } from '../test/stub-fetch'
import { DashboardLayout } from './dashboard-layout'

const session = {
  session: {
    id: 'sess-1',
    userId: 'user-1',
    token: 't',
    expiresAt: '2099-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  },
  user: {
    id: 'user-1',
    email: 'ada@lovelace.law',
    name: '',
    emailVerified: true,
    image: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  },
}

function server(signedIn: boolean) {
  let current = signedIn
  const stub = stubFetch((request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/api/auth/get-session') return jsonResponse(current ? session : null)
    if (pathname === '/api/auth/sign-out') {
      current = false
      return jsonResponse({ success: true })
    }
    if (pathname === '/api/auth/organization/list') return jsonResponse([])
    return undefined
  })
  resetAuthSession()
  return stub
}

function renderDashboard() {
  return renderWithRouter({
    routes: [
      { path: '/', element: <p>Landing</p> },
      { path: '/auth', element: <p>Sign-in screen</p> },
      {
        path: '/dashboard',
        element: <DashboardLayout />,
        children: [{ index: true, element: <p>Home</p> }],
      },
    ],
    initialPath: '/dashboard',
  })
}

describe('DashboardLayout', () => {
  it("shows 'Loading...' while the session loads, then sends a signed-out visitor to /auth", async () => {
    server(false)
    const { router } = renderDashboard()

    expect(screen.getByRole('status')).toHaveTextContent('Loading...')
    expect(await screen.findByText('Sign-in screen')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/auth')
  })

  it('shows the three link groups and the signed-in e-mail', async () => {
    server(true)
    renderDashboard()

    expect(await screen.findByText('ada@lovelace.law')).toBeInTheDocument()
    const nav = screen.getByRole('navigation', { name: 'Dashboard navigation' })
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')])
    expect(links).toEqual([
      ['Lexdesk', '/dashboard'],
      ['Dashboard', '/dashboard'],
      ['Documents', '/dashboard/documents'],
      ['Voice Assistant', '/dashboard/voice'],
      ['Analytics', '/dashboard/analytics'],
      ['Entities', '/dashboard/entities'],
      ['Conversations', '/dashboard/conversations'],
      ['Events', '/dashboard/events'],
      ['Vector Store', '/dashboard/vector'],
      ['Security', '/dashboard/security'],
      ['Storage', '/dashboard/storage'],
      ['SQL Runner', '/dashboard/sql'],
      ['Connect GPT', '/dashboard/connect-gpt'],
      ['Settings', '/dashboard/settings'],
    ])
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    )
  })

  it("signs out with 'Signed out successfully' and goes to /", async () => {
    const calls = server(true)
    const { router } = renderDashboard()

    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }))

    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(calls.calls()).toContain('POST /api/auth/sign-out')
  })
})

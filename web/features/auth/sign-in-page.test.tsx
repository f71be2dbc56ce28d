import { describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { jsonResponse, stubFetch, type FetchHandler } from '../../test/stub-fetch'
import { renderWithRouter } from '../../test/render-with-router'
import { resetAuthSession } from '../../test/reset-auth-session'
import { SignInPage } from './sign-in-page'

function signedOutServer(onMagicLink: FetchHandler): FetchHandler {
  return (request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/api/auth/get-session') return jsonResponse(null)
    if (pathname === '/api/auth/sign-in/magic-link') return onMagicLink(request)
    return undefined
  }
}

function renderSignIn(initialPath = '/auth') {
  resetAuthSession()
  return renderWithRouter({ routes: [{ path: '/auth', element: <SignInPage /> }], initialPath })
}

describe('SignInPage', () => {
  it('asks for an e-mail and sends nothing when the field is empty', async () => {
    const server = stubFetch(signedOutServer(() => jsonResponse({ status: true })))
    renderSignIn()

    await userEvent.click(screen.getByRole('button', { name: 'Send Secure Link' }))

    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your email')
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true')
    expect(server.calls()).not.toContain('POST /api/auth/sign-in/magic-link')
  })

  it('sends the magic link and shows the address in the check-your-email state', async () => {
    const server = stubFetch(signedOutServer(() => jsonResponse({ status: true })))
    renderSignIn()

    const email = screen.getByRole('textbox', { name: 'Email' })
    expect(email).toHaveAttribute('type', 'email')
    await userEvent.type(email, 'ada@lovelace.law')
    await userEvent.click(screen.getByRole('button', { name: 'Send Secure Link' }))

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument()
    expect(screen.getByText('ada@lovelace.law')).toBeInTheDocument()
    expect(await screen.findByText('Check your email for the magic link!')).toBeInTheDocument()
    const sent = server.requests.find((r) => r.url.endsWith('/api/auth/sign-in/magic-link'))
    expect(await sent?.json()).toEqual({
      email: 'ada@lovelace.law',
      callbackURL: '/dashboard',
      errorCallbackURL: '/auth',
    })
  })

  it('says a used or expired link did not sign in, and sends a new one from the same form', async () => {
    const server = stubFetch(signedOutServer(() => jsonResponse({ status: true })))
    renderSignIn('/auth?error=INVALID_TOKEN')

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sign-in link was already used or has expired. Enter your e-mail to get a new link.',
    )
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@lovelace.law')
    await userEvent.click(screen.getByRole('button', { name: 'Send Secure Link' }))
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument()
    expect(server.calls()).toContain('POST /api/auth/sign-in/magic-link')
  })

  it('says an expired link expired', async () => {
    stubFetch(signedOutServer(() => jsonResponse({ status: true })))
    renderSignIn('/auth?error=EXPIRED_TOKEN')
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link has expired.')
  })

  it("returns to an empty form on 'Use a different email'", async () => {
    stubFetch(signedOutServer(() => jsonResponse({ status: true })))
    renderSignIn()
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@lovelace.law')
    await userEvent.click(screen.getByRole('button', { name: 'Send Secure Link' }))

    await userEvent.click(await screen.findByRole('button', { name: 'Use a different email' }))

    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('')
    expect(screen.queryByRole('heading', { name: 'Check your email' })).not.toBeInTheDocument()
  })

  it("shows the server's message when sending fails and stays on the form", async () => {
    stubFetch(
      signedOutServer(() =>
        jsonResponse(
          { code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Try again later.' },
          429,
        ),
      ),
    )
    renderSignIn()
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@lovelace.law')
    await userEvent.click(screen.getByRole('button', { name: 'Send Secure Link' }))

    expect(await screen.findByText('Too many requests. Try again later.')).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Send Secure Link' })).toBeEnabled(),
    )
    expect(screen.queryByRole('heading', { name: 'Check your email' })).not.toBeInTheDocument()
  })

  it('links to the Terms and Privacy sections on the page', () => {
    stubFetch(signedOutServer(() => jsonResponse({ status: true })))
    renderSignIn()
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '#terms')
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '#privacy')
    expect(document.getElementById('terms')).toBeInTheDocument()
    expect(document.getElementById('privacy')).toBeInTheDocument()
  })

  it('sends the address to single sign-on and goes to the identity provider it names', async () => {
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
    const server = stubFetch((request) => {
      const { pathname } = new URL(request.url)
      if (pathname === '/api/auth/get-session') return jsonResponse(null)
      if (pathname === '/api/auth/sign-in/sso')
        return jsonResponse({ url: 'https://login.acme.test/authorize?x=1', redirect: true })
      return undefined
    })
    renderSignIn()
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with your firm’s SSO' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@acme.test')
    await userEvent.click(screen.getByRole('button', { name: 'Continue with SSO' }))
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://login.acme.test/authorize?x=1'),
    )
    const sent = server.requests.find((r) => r.url.endsWith('/api/auth/sign-in/sso'))
    expect(await sent?.json()).toEqual({
      email: 'ada@acme.test',
      callbackURL: '/dashboard',
      errorCallbackURL: '/auth',
    })
    expect(server.calls()).not.toContain('POST /api/auth/sign-in/magic-link')
  })

  it('says when the domain has no single sign-on, and when a link was refused because it requires it', async () => {
    stubFetch((request) => {
      const { pathname } = new URL(request.url)
      if (pathname === '/api/auth/get-session') return jsonResponse(null)
      if (pathname === '/api/auth/sign-in/sso')
        return jsonResponse({ code: 'NOT_FOUND', message: 'No provider found' }, 404)
      return undefined
    })
    renderSignIn('/auth?error=SSO_REQUIRED')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your firm requires single sign-on for this address: use “Sign in with your firm’s SSO”.',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with your firm’s SSO' }))
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@lovelace.law')
    await userEvent.click(screen.getByRole('button', { name: 'Continue with SSO' }))
    expect(
      await screen.findByText(
        'Your firm has no single sign-on for this address: use an e-mail link.',
      ),
    ).toBeInTheDocument()
  })
})

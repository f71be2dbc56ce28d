/**
 * Starts a single sign-on (issue 45, decision 0152): asks the server for the identity provider
 * of `email`'s domain and resolves with the URL to send the browser to (the provider's login).
 * Rejects with a sentence for the person when the domain has no (verified) provider, or with the
 * server's own problem detail otherwise.
 */
export async function startSsoSignIn(
  email: string,
  callbackURL: string,
  errorCallbackURL: string,
): Promise<string> {
  const response = await fetch('/api/auth/sign-in/sso', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ email, callbackURL, errorCallbackURL }),
  })
  const body = (await response.json().catch(() => ({}))) as {
    url?: unknown
    detail?: unknown
    message?: unknown
  }
  if (response.ok && typeof body.url === 'string') return body.url
  if (response.status === 404 || response.status === 401 || response.status === 400)
    throw new Error('Your firm has no single sign-on for this address: use an e-mail link.')
  const detail = typeof body.detail === 'string' ? body.detail : body.message
  throw new Error(typeof detail === 'string' && detail ? detail : 'Single sign-on failed')
}

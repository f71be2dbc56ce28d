/** The better-auth browser client (session cookie, same origin) with magic-link and organisation plugins. */
import { createAuthClient } from 'better-auth/react'
import { magicLinkClient, organizationClient } from 'better-auth/client/plugins'

/**
 * Singleton auth client. `baseURL` is the page origin; better-auth appends `/api/auth`.
 * Every request goes through the current `globalThis.fetch`, which is what tests stub.
 */
export const authClient = createAuthClient({
  baseURL: typeof window === 'undefined' ? undefined : window.location.origin,
  plugins: [magicLinkClient(), organizationClient()],
  // better-auth captures `fetch` when the client is created; look it up per call instead.
  fetchOptions: { customFetchImpl: (input, init) => globalThis.fetch(input, init) },
})

/**
 * The server's words in a better-auth client error: the problem's `detail` (Lexdesk turns
 * better-auth's errors and its own limits into problem+json), else better-auth's `message`, else
 * the status text.
 */
export function authErrorMessage(error: { message?: string; statusText: string }): string {
  const detail = (error as { detail?: unknown }).detail
  if (typeof detail === 'string' && detail) return detail
  return error.message || error.statusText
}

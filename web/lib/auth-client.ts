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

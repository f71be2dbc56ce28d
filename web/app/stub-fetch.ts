/** Test helper: answers the app's HTTP calls (better-auth and the API) without a server. */
import { vi } from 'vitest'

/** Handler for one request; return undefined to answer 404. */
export type FetchHandler = (
  request: Request,
) => Response | undefined | Promise<Response | undefined>

/** JSON response with `status` (default 200). */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/**
 * Replaces `globalThis.fetch` (restored by `vi.restoreAllMocks` in test-setup) and returns the
 * spy; `calls()` lists the requests seen, as `METHOD pathname`.
 */
export function stubFetch(handler: FetchHandler) {
  const seen: Request[] = []
  const spy = vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      // better-fetch passes (url, init); openapi-fetch passes a Request. Drop jsdom's AbortSignal,
      // which Node's Request rejects.
      const { signal: _signal, ...rest } = init ?? {}
      const request = input instanceof Request ? input : new Request(String(input), rest)
      seen.push(request.clone())
      return (await handler(request)) ?? jsonResponse({ message: 'Not found' }, 404)
    })
  return {
    spy,
    requests: seen,
    calls: () => seen.map((r) => `${r.method} ${new URL(r.url).pathname}`),
  }
}

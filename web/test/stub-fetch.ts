/**
 * Test helper: answers the app's HTTP calls (better-auth and the API) without a server, at the
 * network boundary (global fetch), so the code under test runs unmodified.
 */
import { vi } from 'vitest'

/** Handler for one request; return undefined to answer a 404 problem. */
export type FetchHandler = (
  request: Request,
) => Response | undefined | Promise<Response | undefined>

/** Handlers keyed by `METHOD /pathname` (no query string), e.g. `'GET /api/v1/orgs/o1/documents'`. */
export type FetchRoutes = Record<string, FetchHandler>

/** JSON response with `status` (default 200). */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/** An RFC 9457 problem response with `detail`. */
export function problemResponse(status: number, detail: string): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title: 'Error', status, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  })
}

function routeTable(routes: FetchRoutes): FetchHandler {
  return (request) => routes[`${request.method} ${new URL(request.url).pathname}`]?.(request)
}

/**
 * Replaces `globalThis.fetch` (restored by `vi.restoreAllMocks` in web/test/setup.ts) with
 * `handler`, or with a table of `METHOD /path` handlers. Unanswered requests get a 404 problem
 * naming the request. Returns the spy, the requests seen in order, and `calls()` listing them as
 * `METHOD pathname`.
 */
export function stubFetch(handler: FetchHandler | FetchRoutes) {
  const answer = typeof handler === 'function' ? handler : routeTable(handler)
  const requests: Request[] = []
  const spy = vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      // better-fetch passes (url, init); openapi-fetch passes a Request. Drop jsdom's AbortSignal,
      // which Node's Request rejects.
      const { signal: _signal, ...rest } = init ?? {}
      // A path alone (the app's own fetch calls) is resolved against the page, as a browser does.
      const request =
        input instanceof Request
          ? input
          : new Request(new URL(String(input), window.location.href), rest)
      requests.push(request.clone())
      const key = `${request.method} ${new URL(request.url).pathname}`
      return (await answer(request)) ?? problemResponse(404, `No stub for ${key}`)
    })
  return {
    spy,
    requests,
    calls: () => requests.map((r) => `${r.method} ${new URL(r.url).pathname}`),
  }
}

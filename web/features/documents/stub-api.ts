/** Test helper: stubs global fetch with a table of `METHOD /path` handlers (the network boundary). */
import { vi } from 'vitest'

type Handler = (request: Request) => Response | Promise<Response>

/** A JSON response. */
export function jsonResponse(status: number, body: unknown): Response {
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

/**
 * Replaces `globalThis.fetch`; `routes` maps 'GET /api/v1/…' (path without query) to a handler.
 * Unmatched requests get a 404 problem. Returns the log of requests received, in order.
 */
export function stubApi(routes: Record<string, Handler>) {
  const requests: Request[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init)
      requests.push(request.clone())
      const key = `${request.method} ${new URL(request.url).pathname}`
      const handler = routes[key]
      return handler ? handler(request) : problemResponse(404, `No stub for ${key}`)
    }),
  )
  return { requests }
}

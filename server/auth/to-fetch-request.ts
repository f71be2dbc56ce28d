/** Bridges a Fastify request to the Fetch API Request better-auth's handler takes. */
import type { FastifyRequest } from 'fastify'
import { CLIENT_IP_HEADER } from './auth'

/** Body headers that describe the incoming body, wrong for a request re-sent without it. */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding']

/**
 * `req` as a Fetch Request on `origin`: its headers (the client address header replaced by the
 * socket's, see auth.ts CLIENT_IP_HEADER) and its JSON body. With `as`, a bodiless request of that
 * method to that URL instead, carrying the same headers (cookies included).
 */
export function toFetchRequest(
  req: FastifyRequest,
  origin: string,
  as?: { method: 'GET'; url: URL },
): Request {
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || (as && BODY_HEADERS.includes(key))) continue
    headers.set(key, Array.isArray(value) ? value.join(', ') : value)
  }
  headers.set(CLIENT_IP_HEADER, req.ip)
  if (as) return new Request(as.url, { method: as.method, headers })
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined
  return new Request(new URL(req.url, origin), {
    method: req.method,
    headers,
    body: hasBody ? JSON.stringify(req.body) : undefined,
  })
}

/**
 * Server-sent events (text/event-stream, WHATWG HTML §9.2) on a Fastify reply. The reply is
 * hijacked, so Fastify's onSend hooks no longer run: the headers already set on it (security
 * headers, request id) are carried over by hand, and proxies are told not to buffer.
 */
import type { FastifyReply } from 'fastify'
import type { ServerResponse } from 'node:http'

/**
 * Starts a 200 event stream on `reply` and returns the raw response, for writes and for its
 * 'close' event (the client went away). Call it once, before anything was sent.
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack()
  const raw = reply.raw
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  })
  return raw
}

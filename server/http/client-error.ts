/**
 * Fastify's `clientErrorHandler` option: errors Node's HTTP parser meets before a request exists
 * (header fields over `maxHeaderSize`, 16 KiB by default → 431; a request that does not parse →
 * 400; headers not received within the request timeout → 408). Node and Fastify's default answer
 * them with bare JSON; here they get an RFC 9457 problem body like every other error, written
 * straight to the socket (no request, no reply, no hooks exist yet), then the connection closes.
 */
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import type { ErrorCode } from '../errors/error-codes'
import { problem } from './problem'

const ANSWERS: Record<string, [number, string, ErrorCode]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'The request headers are too large (at most 16 KiB in all).',
    'headers_too_large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.', 'request_timeout'],
}

/** Answers `err` on `socket` with a problem+json response and closes it (`this`: the app). */
export function clientErrorHandler(
  this: FastifyInstance,
  err: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has nobody left to answer (Node's 'clientError' documentation).
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, detail, code] = ANSWERS[err.code ?? ''] ?? [
    400,
    'The request could not be read.',
    'bad_request',
  ]
  this.log.debug({ err }, 'client error')
  if (socket.writable) {
    const body = problem(status, detail, code)
    const text = JSON.stringify(body)
    socket.write(
      [
        `HTTP/1.1 ${status} ${body.title}`,
        'Content-Type: application/problem+json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(text)}`,
        'X-Content-Type-Options: nosniff',
        'Cache-Control: no-store',
        'Connection: close',
        '',
        text,
      ].join('\r\n'),
    )
  }
  socket.destroy(err)
}

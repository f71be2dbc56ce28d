/**
 * A Fastify `serverFactory` that puts a request listener of our own before Fastify's handler
 * (the event-stream gate, event-streams.ts), on the same node:http server Fastify would create
 * itself: its `http` options, keep-alive, request and connection timeouts and requests per
 * socket are applied as fastify/lib/server.js applies them (Fastify skips them for a factory's
 * server).
 */
import http, { type RequestListener } from 'node:http'
import type { FastifyServerFactory } from 'fastify'

/** Fastify's server options the factory applies (defaults filled in by Fastify). */
interface ServerOptions {
  http?: http.ServerOptions
  keepAliveTimeout?: number
  requestTimeout?: number
  connectionTimeout?: number
  maxRequestsPerSocket?: number
}

/** A serverFactory whose server calls `wrap(handler)` for each request, `handler` being Fastify's. */
export function wrappedServerFactory(
  wrap: (handler: RequestListener) => RequestListener,
): FastifyServerFactory {
  return (handler, opts) => {
    const options = opts as ServerOptions
    const server = http.createServer(options.http ?? {}, wrap(handler))
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
    server.setTimeout(options.connectionTimeout ?? 0)
    if ((options.maxRequestsPerSocket ?? 0) > 0)
      server.maxRequestsPerSocket = options.maxRequestsPerSocket ?? 0
    return server
  }
}

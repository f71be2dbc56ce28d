/**
 * The answer for requests no route handles: the single-page app's index.html for browser
 * navigation (GET/HEAD outside /api when the web build exists), 405 with `Allow` when the path
 * exists under other methods, otherwise a 404 problem.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { HTTPMethod } from 'find-my-way'
import { problem } from './problem'

/**
 * Builds the not-found handler. `hasWeb`: whether @fastify/static serves the SPA (it decorates
 * `reply.sendFile`); `allowedMethods`: from `recordRouteMethods`.
 */
export function notFoundHandler(options: {
  hasWeb: boolean
  allowedMethods: (path: string) => HTTPMethod[]
}) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0] ?? '/'
    const isApi = path === '/api' || path.startsWith('/api/')
    if (options.hasWeb && !isApi && (req.method === 'GET' || req.method === 'HEAD')) {
      return reply.type('text/html').sendFile('index.html')
    }
    const allowed = options.allowedMethods(path)
    const body =
      allowed.length > 0
        ? problem(405, `Use ${allowed.join(', ')} on ${path}`, 'method_not_allowed')
        : problem(404, `No route for ${req.method} ${path}`, 'route_not_found')
    if (allowed.length > 0) reply.header('allow', allowed.join(', '))
    return reply
      .status(body.status)
      .type('application/problem+json')
      .send(JSON.stringify({ ...body, instance: path }))
  }
}

/**
 * `GET /metrics`: the Prometheus text of this process (server/ops/metrics.ts) for a scraper that
 * sends `Authorization: Bearer <METRICS_TOKEN>`. Registered only when METRICS_TOKEN is set (else
 * the path is an unknown route, 404). A missing or wrong token is a 401 problem
 * (`unauthenticated`). Outside /api/v1 and the OpenAPI document: an operator's endpoint with no
 * tenant data (docs/authorization.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../errors/app-error'
import type { Metrics } from './metrics'

/** SHA-256 of a token, so comparing two is constant-time whatever their lengths. */
const digest = (text: string) => createHash('sha256').update(text).digest()

/** Whether `req` carries `Bearer <token>`. */
function bearerMatches(req: FastifyRequest, token: string): boolean {
  const header = req.headers.authorization ?? ''
  const sent = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : ''
  return timingSafeEqual(digest(sent), digest(token))
}

/** Registers `GET /metrics` on `app`, answering `metrics`' registry to holders of `token`. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!bearerMatches(req, token))
      throw new AppError('unauthenticated', 'Send the metrics token as a Bearer credential.')
    return reply
      .header('cache-control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics())
  })
}

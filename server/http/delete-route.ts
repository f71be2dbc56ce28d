/**
 * The declaration every "delete one thing" route of the API shares: DELETE, params validated by
 * a zod schema, the least role (and the app reach), 204 with no body once the deletion is done, and its 404 problem
 * documented when it has one. The route's own work stays in its feature's service.
 */
import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Role } from '../db/roles'
import { problemResponse } from './problem-responses'

/** What a delete route declares besides its path. */
export interface DeleteRouteSpec<Params extends z.ZodType> {
  operationId: string
  tags: string[]
  description: string
  params: Params
  minRole: Role
  /** How an app-bound credential may use it (route-roles.ts `config.app`; default `'own'`). */
  app?: FastifyContextConfig['app']
  /** The 404 problem's description, when the route documents one. */
  notFound?: string
}

/**
 * Declares DELETE `url` on `app`: `remove(params, req)` does the deletion (throwing AppErrors as
 * usual); the answer is 204 with no body.
 */
export function deleteRoute<Params extends z.ZodType>(
  app: FastifyInstance<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    FastifyBaseLogger,
    ZodTypeProvider
  >,
  url: string,
  spec: DeleteRouteSpec<Params>,
  remove: (params: z.output<Params>, req: FastifyRequest) => Promise<unknown>,
): void {
  const { operationId, tags, description, params, minRole, app: reach, notFound } = spec
  app.delete(
    url,
    {
      schema: {
        operationId,
        tags,
        description,
        params,
        response: { 204: z.null(), ...(notFound ? { 404: problemResponse(notFound) } : {}) },
      },
      config: { minRole, ...(reach && { app: reach }) },
    },
    async (req, reply) => {
      await remove(req.params as z.output<Params>, req as FastifyRequest)
      return reply.status(204).send(null)
    },
  )
}

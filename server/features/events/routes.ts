/** HTTP route of the event log: the organisation's newest events, optionally of one kind. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { OrgParams } from '../../http/params'
import { pageOf, pageQuery } from '../../lists/list-kit'
import { EVENT_LIST_LIMIT, listEvents } from './service'
import type { FeatureContext } from '../../services'

const EventSchema = z
  .object({
    id: z.number().int(),
    appId: z.string().uuid().nullable(),
    kind: z.string(),
    meta: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
  })
  .meta({ id: 'Event' })

const EventListQuery = pageQuery({
  defaultLimit: EVENT_LIST_LIMIT,
  maxLimit: EVENT_LIST_LIMIT,
}).extend({
  kind: z.string().max(100).optional().describe('Only events of this kind, e.g. entities.imported'),
})

export const eventRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db } },
) => {
  app.get(
    '/orgs/:orgId/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['events'],
        params: OrgParams,
        querystring: EventListQuery,
        response: {
          200: pageOf(EventSchema).extend({
            kinds: z.array(z.string()).describe('The kinds of event the organisation has'),
          }),
        },
      },
      config: { minRole: 'member' },
    },
    (req) => listEvents(db, principalOf(req), req.query),
  )
}

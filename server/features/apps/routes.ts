/** Apps: optional sub-spaces of an organisation (id, slug, org_id). List and create. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { OrgParams } from '../../http/params'
import { problemResponse } from '../../http/problem-responses'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { createApp, listApps } from './service'
import type { FeatureContext } from '../../services'

const AppSchema = z
  .object({ id: z.string().uuid(), slug: z.string(), orgId: z.string(), createdAt: z.string() })
  .meta({ id: 'App' })

export const NewApp = z.object({
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'Give the app a slug')
    .max(60)
    .regex(
      /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
      'A slug holds lower-case letters and digits separated by single hyphens',
    ),
})

export const appRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db } },
) => {
  app.get(
    '/orgs/:orgId/apps',
    {
      schema: {
        operationId: 'listApps',
        tags: ['apps'],
        params: OrgParams,
        querystring: PageQuery,
        response: { 200: pageOf(AppSchema) },
      },
      config: { minRole: 'member' },
    },
    (req) => listApps(db, principalOf(req), req.query),
  )

  app.post(
    '/orgs/:orgId/apps',
    {
      schema: {
        operationId: 'createApp',
        tags: ['apps'],
        params: OrgParams,
        body: NewApp,
        response: {
          201: AppSchema,
          409: problemResponse('An app with this slug exists in the organisation'),
        },
      },
      // A credential bound to one app creates nothing wider than itself (decision 0104).
      config: { minRole: 'admin', app: 'organisation' },
    },
    async (req, reply) =>
      reply.status(201).send(await createApp(db, principalOf(req), req.body.slug)),
  )
}

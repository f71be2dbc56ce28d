/**
 * HTTP routes of the dashboard home and analytics (issue 30): the home's tiles, the recent
 * activity and the usage of a period, each for the organisation or one app of it (`appId`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { AppId, OrgParams } from '../../http/params'
import { ANALYTICS_PERIODS, overview, recentActivity, usage } from './service'
import type { FeatureContext } from '../../services'

const AppQuery = z.object({
  appId: AppId.optional().describe('Only this app of the organisation; absent: all apps'),
})

const UsageQuery = AppQuery.extend({
  days: z.coerce
    .number()
    .int()
    .refine((d) => (ANALYTICS_PERIODS as readonly number[]).includes(d), {
      message: `days must be one of ${ANALYTICS_PERIODS.join(', ')}`,
    })
    .default(30)
    .describe('The period: the last 7, 30 or 90 days, today (UTC) included'),
})

const Overview = z
  .object({
    documents: z.number().int().describe('Documents in the library'),
    analyses: z.number().int().describe('Analyses that finished, ever'),
    recordings: z.number().int().describe('Voice recordings kept'),
    members: z.number().int().describe('Members of the organisation'),
  })
  .meta({ id: 'DashboardOverview' })

const ActivityItem = z
  .object({
    id: z.number().int(),
    kind: z.string().describe('The event kind, e.g. document.uploaded'),
    appId: z.string().uuid().nullable(),
    meta: z.record(z.string(), z.unknown()).describe('The ids and names of what was acted on'),
    createdAt: z.string(),
    actor: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .describe('The member who acted; null for the system, a credential or a former member'),
  })
  .meta({ id: 'ActivityItem' })

const UsageDay = z
  .object({
    day: z.string().describe('UTC date, YYYY-MM-DD'),
    documentsAdded: z.number().int(),
    documentsAnalysed: z.number().int(),
    voiceRecordings: z.number().int(),
    activeUsers: z.number().int(),
  })
  .meta({ id: 'UsageDay' })

const Usage = z
  .object({
    days: z.number().int(),
    from: z.string(),
    to: z.string(),
    totals: z.object({
      documentsAdded: z.number().int(),
      documentsAnalysed: z.number().int(),
      voiceRecordings: z.number().int(),
      activeUsers: z.number().int(),
      jobsSucceeded: z.number().int(),
      avgProcessingMs: z.number().int().nullable().describe('Mean run of the succeeded jobs'),
    }),
    series: z.array(UsageDay).describe('One point per day, oldest first'),
  })
  .meta({ id: 'Usage' })

export const analyticsRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db } },
) => {
  app.get(
    '/orgs/:orgId/analytics/overview',
    {
      schema: {
        operationId: 'getDashboardOverview',
        tags: ['analytics'],
        params: OrgParams,
        querystring: AppQuery,
        response: { 200: Overview },
      },
      config: { minRole: 'member' },
    },
    (req) => overview(db, principalOf(req), req.query),
  )
  app.get(
    '/orgs/:orgId/analytics/activity',
    {
      schema: {
        operationId: 'listRecentActivity',
        tags: ['analytics'],
        params: OrgParams,
        querystring: AppQuery,
        response: { 200: z.object({ items: z.array(ActivityItem) }) },
      },
      config: { minRole: 'member' },
    },
    async (req) => ({ items: await recentActivity(db, principalOf(req), req.query) }),
  )
  app.get(
    '/orgs/:orgId/analytics/usage',
    {
      schema: {
        operationId: 'getUsage',
        tags: ['analytics'],
        params: OrgParams,
        querystring: UsageQuery,
        response: { 200: Usage },
      },
      config: { minRole: 'member' },
    },
    (req) => usage(db, principalOf(req), req.query),
  )
}

/**
 * HTTP routes of background jobs: list an organisation's jobs (e.g. a document's running
 * analysis after a reload), read one, cancel one. A job is followed live over the organisation's
 * realtime WebSocket (`follow` messages, features/realtime, decision 0125), not here.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { FeatureContext } from '../../services'
import { OrgParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { cancelJob, getJob, JobStatus, listJobs } from '../../jobs/job-service'
import { JobKindSchema, JobSchema } from '../../job-schema'
import { JobSubject, jobSubjects } from './job-subjects'

const JobParams = OrgParams.extend({ jobId: z.string().uuid({ message: 'Job id must be a UUID' }) })
const JobListQuery = PageQuery.extend({
  subjectId: z.string().max(100).optional(),
  kind: JobKindSchema.optional().describe('Only jobs of this kind, e.g. analysis'),
  status: z
    .string()
    .optional()
    .describe('Comma-separated statuses, e.g. queued,running')
    .transform((s, ctx) => {
      if (!s) return undefined
      const parsed = z.array(JobStatus).safeParse(s.split(',').map((v) => v.trim()))
      if (parsed.success) return parsed.data
      ctx.addIssue({ code: 'custom', message: `status takes ${JobStatus.options.join(', ')}` })
      return z.NEVER
    }),
})

export const jobRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const { db, jobs: runner } = services

  app.get(
    '/orgs/:orgId/jobs',
    {
      schema: {
        operationId: 'listJobs',
        tags: ['jobs'],
        params: OrgParams,
        querystring: JobListQuery,
        response: {
          200: pageOf(JobSchema).extend({
            subjects: z
              .array(JobSubject)
              .describe("The documents and recordings the page's jobs work on, with their titles"),
          }),
        },
      },
      config: { minRole: 'member' },
    },
    async (req) => {
      const principal = principalOf(req)
      const page = await listJobs(db, principal, req.query)
      const subjects = await jobSubjects(
        db,
        principal,
        page.items.map((job) => job.subjectId),
      )
      return { ...page, subjects }
    },
  )

  app.get(
    '/orgs/:orgId/jobs/:jobId',
    {
      schema: {
        operationId: 'getJob',
        tags: ['jobs'],
        params: JobParams,
        response: { 200: JobSchema },
      },
      config: { minRole: 'member' },
    },
    (req) => getJob(db, principalOf(req), req.params.jobId),
  )

  app.post(
    '/orgs/:orgId/jobs/:jobId/cancel',
    {
      schema: {
        operationId: 'cancelJob',
        tags: ['jobs'],
        description:
          'Cancels a queued job at once and stops a running one. Only its creator or an admin may cancel; 409 when it has already ended.',
        params: JobParams,
        response: { 200: JobSchema },
      },
      config: { minRole: 'member' },
    },
    async (req) => {
      const job = await cancelJob(db, principalOf(req), req.params.jobId)
      runner.abortLocal(job.id)
      return job
    },
  )
}

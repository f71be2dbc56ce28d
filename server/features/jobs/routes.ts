/**
 * HTTP routes of background jobs: list an organisation's jobs (e.g. a document's running
 * analysis after a reload), read one, cancel one, and follow one as server-sent events (one
 * `data:` line with the job as JSON per change, ending after a final state).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { AppServices } from '../../services'
import { OrgParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import {
  ACTIVE_STATUSES,
  cancelJob,
  getJob,
  JobStatus,
  listJobs,
  type Job,
} from '../../jobs/job-service'
import { streamResponse } from '../../http/stream-responses'
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

export const jobRoutes: FastifyPluginAsyncZod<{
  services: AppServices
}> = async (app, { services }) => {
  const { db, jobs: runner, streams } = services

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
      runner.notify({ jobId: job.id, orgId: req.params.orgId })
      return job
    },
  )

  app.get(
    '/orgs/:orgId/jobs/:jobId/events',
    {
      schema: {
        operationId: 'streamJob',
        tags: ['jobs'],
        description:
          'Server-sent events: one `data:` line holding the job (see getJob) now and after each change; the stream ends after the job reaches succeeded, failed or cancelled.',
        params: JobParams,
        produces: ['text/event-stream'],
        response: { 200: streamResponse('The event stream', ['text/event-stream']) },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const principal = principalOf(req)
      const first = await getJob(db, principal, req.params.jobId)
      const stream = streams.open(req, reply)
      let last = ''
      const send = (job: Job) => {
        const text = JSON.stringify(job)
        if (text !== last) stream.send(job)
        last = text
        if (!ACTIVE_STATUSES.includes(job.status)) stream.end()
      }
      // One read at a time: changes arriving during a read are covered by one more read after it,
      // so a burst of changes costs two reads, and answers cannot arrive out of order.
      let reading: Promise<void> | null = null
      let again = false
      const refresh = () => {
        if (reading) {
          again = true
          return
        }
        reading = getJob(db, principal, first.id)
          .then(send, (error: unknown) => {
            req.log.warn({ err: error }, 'job stream refresh failed')
            stream.end()
          })
          .finally(() => {
            reading = null
            if (again && !stream.signal.aborted) {
              again = false
              refresh()
            }
          })
      }
      const unfollow = runner.follow(first.id, refresh)
      stream.signal.addEventListener('abort', unfollow, { once: true })
      send(first)
    },
  )
}

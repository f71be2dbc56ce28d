/**
 * HTTP routes of retention (issue 45, decision 0148), for admins and owners: the organisation's
 * retention policies (list, set, clear), a run now, and the deletion report as JSON or CSV.
 * Policies belong to the whole organisation (an app's included), so a credential bound to one app
 * cannot use them.
 */
import { Readable } from 'node:stream'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { OrgParams } from '../../http/params'
import { problemResponse } from '../../http/problem-responses'
import { fileHeaders } from '../../media/file-download'
import { pageOf, PageQuery } from '../../lists/list-kit'
import { jobSchemaOf } from '../../job-schema'
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN, RETENTION_KINDS } from '../../holds/retention-rule'
import {
  clearPolicy,
  listPolicies,
  REPORT_CSV_COLUMNS,
  retentionReport,
  retentionReportCsv,
  setPolicy,
  startRetentionRun,
} from './service'
import type { FeatureContext } from '../../services'

const RetentionKindSchema = z
  .enum(RETENTION_KINDS)
  .describe(
    'documents (with their analyses, passages and files), recordings (with transcripts and audio), conversations (with their messages), storage_objects (with their files), audit_entries',
  )

const KeepDays = z
  .number()
  .int()
  .min(RETENTION_DAYS_MIN, `Keep at least ${RETENTION_DAYS_MIN} day`)
  .max(RETENTION_DAYS_MAX, `Keep at most ${RETENTION_DAYS_MAX} days (or forever: null)`)
  .nullable()
  .describe('Days an item is kept after its last change; null keeps it forever')

const RetentionPolicySchema = z
  .object({
    id: z.string().uuid(),
    appId: z
      .string()
      .uuid()
      .nullable()
      .describe("The app it is for; null: the organisation's default"),
    kind: RetentionKindSchema,
    keepDays: KeepDays,
    setBy: z.string().nullable(),
    setAt: z.string(),
  })
  .meta({ id: 'RetentionPolicy' })

const SetPolicyBody = z.object({
  kind: RetentionKindSchema,
  appId: z
    .string()
    .uuid({ message: 'appId must be an app id (UUID)' })
    .nullable()
    .optional()
    .describe(
      "The app (a matter) whose policy this is; absent or null: the organisation's default",
    ),
  keepDays: KeepDays,
})

const PolicyParams = OrgParams.extend({
  policyId: z.string().uuid({ message: 'Retention policy id must be a UUID' }),
})

const RetentionDeletionSchema = z
  .object({
    id: z.string().uuid(),
    deletedAt: z.string(),
    kind: RetentionKindSchema,
    targetId: z
      .string()
      .nullable()
      .describe('The deleted item’s id; null for a batch of audit entries'),
    title: z.string().nullable().describe('Its title or name when it had one (never its content)'),
    appId: z.string().nullable(),
    itemCount: z.number().int().describe('1, or the entries of an audit batch'),
    lastChangedAt: z.string().nullable(),
    policyId: z.string().uuid(),
    policyKeepDays: z.number().int().describe("The policy's days when it deleted the item"),
    jobId: z.string().nullable().describe('The retention run that deleted it'),
  })
  .meta({ id: 'RetentionDeletion' })

const ReportQuery = PageQuery.extend({
  from: z.coerce.date().optional().describe('Deletions at or after this instant (ISO 8601)'),
  to: z.coerce.date().optional().describe('Deletions before this instant (ISO 8601)'),
  format: z
    .enum(['json', 'csv'])
    .default('json')
    .describe('csv: the whole period as a CSV attachment (limit and offset ignored)'),
})

const CONFIG = { minRole: 'admin', app: 'organisation' } as const

export const retentionRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db, jobs } },
) => {
  app.get(
    '/orgs/:orgId/retention-policies',
    {
      schema: {
        operationId: 'listRetentionPolicies',
        tags: ['retention'],
        description:
          'The organisation’s retention policies: its defaults (no app) first, then each app’s. A kind without a policy is kept forever.',
        params: OrgParams,
        response: { 200: z.object({ items: z.array(RetentionPolicySchema) }) },
      },
      config: CONFIG,
    },
    (req) => listPolicies(db, principalOf(req)),
  )

  app.put(
    '/orgs/:orgId/retention-policies',
    {
      schema: {
        operationId: 'setRetentionPolicy',
        tags: ['retention'],
        description:
          'Sets how long the organisation (or one app, whose policy beats the organisation’s) keeps one kind of data: `keepDays` days after its last change (1–36,500), or forever (null), replacing the policy there was. The daily retention run deletes what is due, never what a legal hold keeps. Stored objects and audit entries have no app: only an organisation-wide policy. Audit entries are kept at least 365 days, and only an owner signed in sets their policy (403 otherwise). Audited.',
        params: OrgParams,
        body: SetPolicyBody,
        response: {
          200: RetentionPolicySchema,
          404: problemResponse('The organisation has no such app'),
        },
      },
      config: CONFIG,
    },
    (req) => setPolicy(db, principalOf(req), req.body),
  )

  app.delete(
    '/orgs/:orgId/retention-policies/:policyId',
    {
      schema: {
        operationId: 'clearRetentionPolicy',
        tags: ['retention'],
        description:
          'Clears a retention policy: its items are governed by the organisation’s default again, or kept forever when there is none. Audited.',
        params: PolicyParams,
        response: {
          204: z.null().describe('Cleared'),
          404: problemResponse('No such retention policy in the organisation'),
        },
      },
      config: CONFIG,
    },
    async (req, reply) => {
      await clearPolicy(db, principalOf(req), req.params.policyId)
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/orgs/:orgId/retention-runs',
    {
      schema: {
        operationId: 'runRetention',
        tags: ['retention'],
        description:
          'Starts a retention run now (a `retention` job; one runs daily anyway): it deletes what the policies say is due, in short transactions, skipping what a legal hold keeps, each deletion audited (`retention.delete`) and in the deletion report. Answers 202 with the job, or with the run already queued or running.',
        params: OrgParams,
        response: { 202: jobSchemaOf('retention') },
      },
      config: CONFIG,
    },
    async (req, reply) =>
      reply.status(202).send(await startRetentionRun(db, jobs, principalOf(req))),
  )

  app.get(
    '/orgs/:orgId/retention-report',
    {
      schema: {
        operationId: 'getRetentionReport',
        tags: ['retention'],
        description: `What retention deleted in a period (\`from\`, \`to\`), newest first a page at a time; with \`format=csv\`, the whole period oldest first as a CSV attachment (header ${REPORT_CSV_COLUMNS.join(',')}; every value quoted, formula starts neutralised as in every export).`,
        params: OrgParams,
        querystring: ReportQuery,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'A page of the report (JSON), or the whole period as CSV',
            content: {
              'application/json': { schema: pageOf(RetentionDeletionSchema) },
              'text/csv': { schema: z.any().meta({ type: 'string' }) },
            },
          },
        },
      },
      config: CONFIG,
    },
    async (req, reply) => {
      const { format, from, to, limit, offset } = req.query
      if (format === 'csv') {
        const stamp = new Date().toISOString().slice(0, 10)
        return fileHeaders(reply, {
          contentType: 'text/csv; charset=utf-8',
          fileName: `retention-report-${stamp}.csv`,
        }).send(Readable.from(retentionReportCsv(db, principalOf(req), { from, to })))
      }
      return retentionReport(db, principalOf(req), { from, to, limit, offset })
    },
  )
}

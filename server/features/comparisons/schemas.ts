/** API schemas of comparisons (issue 46, decision 0149); the result's own: stored-comparison.ts. */
import { z } from 'zod'
import { OrgParams } from '../../http/params'
import { PageQuery } from '../../lists/list-kit'
import { JobStatus } from '../../jobs/job-service'
import { StoredComparison } from './stored-comparison'
import { COMPARISON_STATES } from './service'

export const ComparisonParams = OrgParams.extend({
  comparisonId: z.string().uuid({ message: 'Comparison id must be a UUID' }),
})

export const CreateComparisonBody = z.object({
  baseDocumentId: z.string().uuid().describe('The earlier version (what the changes start from)'),
  revisedDocumentId: z.string().uuid().describe('The later version (their markup)'),
})

export const ComparisonListQuery = PageQuery.extend({
  documentId: z
    .string()
    .uuid()
    .optional()
    .describe('Only comparisons of this document, as either version'),
})

export const ComparisonSummary = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable(),
    baseDocumentId: z.string().uuid(),
    revisedDocumentId: z.string().uuid(),
    state: z.enum(COMPARISON_STATES),
    error: z.string().nullable().describe('Why it failed (user-safe); null unless failed'),
    counts: z
      .object({
        substantive: z.number().int().describe('Substantive changes, moves apart'),
        formatOnly: z.number().int().describe('Changes of form only'),
        moves: z.number().int().describe('Clauses moved'),
      })
      .nullable()
      .describe('Null until done'),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'ComparisonSummary' })

export const ComparisonDetail = ComparisonSummary.extend({
  job: z
    .object({
      jobId: z.string().uuid(),
      status: JobStatus,
      progress: z.number(),
      message: z.string().nullable(),
    })
    .nullable()
    .describe('Its latest job (follow it with getJob or the realtime `follow` message)'),
  result: StoredComparison.nullable().describe('Null until done'),
}).meta({ id: 'Comparison' })

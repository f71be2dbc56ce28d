/**
 * The API shape of a job (decision 0039): one branch per kind of the catalogue, discriminated by
 * `kind`, whose `result` is that kind's result schema (null until it succeeds). In OpenAPI `kind`
 * is an enum and `result` a union, so the web narrows a job's result by its kind instead of
 * copying kind strings and casting.
 */
import { z } from 'zod'
import { JOB_CATALOGUE } from './job-catalogue'
import { JobFields, type Job } from './jobs/job-service'

const [first, ...rest] = JOB_CATALOGUE.map((definition) =>
  JobFields.extend({ kind: z.literal(definition.kind), result: definition.result.nullable() }),
)

export const JobSchema: z.ZodType<Job> = z
  .discriminatedUnion('kind', [first!, ...rest])
  .meta({ id: 'Job' })

/** The kinds of the catalogue, as the jobs list's `kind` filter takes them. */
export const JobKindSchema = z
  .enum(JOB_CATALOGUE.map((definition) => definition.kind) as [string, ...string[]])
  .meta({ id: 'JobKind' })

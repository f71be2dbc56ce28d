/**
 * The API shape of a job (decisions 0039, 0119): one named schema per kind of the catalogue
 * (`AnalysisJob`, `OcrJob`, …: its `kind` a literal, its `result` that kind's result schema, null
 * until it succeeds), which a route queueing that kind answers its 202 with, and their union
 * `Job`, discriminated by `kind`, for the routes that read any job. In OpenAPI `kind` is an enum
 * and `result` a union, so the web narrows a job's result by its kind instead of copying kind
 * strings and casting, and knows from a 202 which kind it got.
 */
import { z } from 'zod'
import { JOB_CATALOGUE, type AppJobCatalogue } from './job-catalogue'
import type { JobKind, JobOf } from './jobs/define-job-contract'
import { JobFields, type Job, type JobOfKind } from './jobs/job-service'

/** The OpenAPI name of each kind's job schema. */
const SCHEMA_IDS: { [K in JobKind<AppJobCatalogue>]: string } = {
  analysis: 'AnalysisJob',
  transcription: 'TranscriptionJob',
  'document-passages': 'DocumentPassagesJob',
  'entities-import': 'EntitiesImportJob',
  ocr: 'OcrJob',
  'tenant-export': 'TenantExportJob',
  'tenant-import': 'TenantImportJob',
  'tenant-clone': 'TenantCloneJob',
  'review-fill': 'ReviewFillJob',
  comparison: 'ComparisonJob',
  retention: 'RetentionJob',
}

const [first, ...rest] = JOB_CATALOGUE.map((contract) =>
  JobFields.extend({ kind: z.literal(contract.kind), result: contract.result.nullable() }).meta({
    id: SCHEMA_IDS[contract.kind],
  }),
)

export const JobSchema: z.ZodType<Job> = z
  .discriminatedUnion('kind', [first!, ...rest])
  .meta({ id: 'Job' })

/**
 * The job schema of `kind`: what a route answers its 202 with when it queues (or finds) a job of
 * that kind, typed so that only a job of that kind fits.
 */
export function jobSchemaOf<K extends JobKind<AppJobCatalogue>>(
  kind: K,
): z.ZodType<JobOfKind<JobOf<AppJobCatalogue, K>>, JobOfKind<JobOf<AppJobCatalogue, K>>> {
  const index = JOB_CATALOGUE.findIndex((contract) => contract.kind === kind)
  return (index === 0 ? first : rest[index - 1]) as never
}

/** The kinds of the catalogue, as the jobs list's `kind` filter takes them. */
export const JobKindSchema = z
  .enum(JOB_CATALOGUE.map((contract) => contract.kind) as [string, ...string[]])
  .meta({ id: 'JobKind' })

/**
 * Starting an organisation clone (issue 27): the request's checks and the queueing of the
 * 'tenant-clone' job, audited in the source organisation where it was asked for.
 */
import { withTenant, type Principal } from '../../db/tenant'
import { recordAudit } from '../../audit/record-audit'
import { AppError } from '../../errors/app-error'
import type { JobOfKind } from '../../jobs/job-service'
import type { tenantCloneJobContract } from '../../jobs/contracts/tenant-clone-job-contract'
import type { AppServices } from '../../services'
import { CLONE_JOB_KIND } from './clone-job'

/** The clone request as the spec names its fields (section 7). */
export interface CloneFields {
  source_org_id?: string
  target_org_name: string
  clone_buckets: boolean
}

/**
 * Queues the clone of `principal`'s organisation; resolves to the queued job. 400
 * `validation_failed` when `source_org_id` names another organisation than the path's (the
 * route clones the organisation it is under, whose owner the caller is).
 */
export function startClone(
  services: Pick<AppServices, 'db' | 'jobs'>,
  principal: Principal,
  fields: CloneFields,
): Promise<JobOfKind<typeof tenantCloneJobContract>> {
  if (fields.source_org_id !== undefined && fields.source_org_id !== principal.orgId)
    throw new AppError(
      'validation_failed',
      'source_org_id: must be the organisation of the path (the one being cloned).',
    )
  const input = { targetOrgName: fields.target_org_name, cloneBuckets: fields.clone_buckets }
  return withTenant(services.db, principal, async (tx) => {
    const job = await services.jobs.enqueue(tx, principal, CLONE_JOB_KIND, input)
    await recordAudit(tx, principal, 'org.clone_requested', { type: 'job', id: job.id }, input)
    return job
  })
}

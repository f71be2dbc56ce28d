/**
 * Waits (up to 20 s) for a background job to reach succeeded, failed or cancelled, reading it
 * through the API as `member`; resolves to the job as the API answers it.
 */
import { expect } from 'vitest'
import type { TestApp, TestMember } from './test-app'

/** A job as getJob answers it, with the fields tests look at. */
export interface FinishedJob {
  status: string
  error: string | null
  errorCode: string | null
  /** The import's row count or the analysis's id, by the job's kind. */
  result: { imported?: number; analysisId?: string } | null
}

export async function finishedJob(
  t: TestApp,
  member: TestMember,
  jobId: string,
): Promise<FinishedJob> {
  let job: FinishedJob | undefined
  await expect
    .poll(
      async () => {
        job = (
          await t.app.inject({
            url: `/api/v1/orgs/${member.orgId}/jobs/${jobId}`,
            headers: member.headers,
          })
        ).json()
        return job?.status
      },
      { timeout: 20_000 },
    )
    .toMatch(/succeeded|failed|cancelled/)
  return job!
}

/** Test factory: a background job as the API returns it, with the fields a test names. */
import type { Job } from '../hooks/jobs'

/** A job of `fields.kind` in `fields.status`, started by user-1, otherwise blank. */
export function makeJob<K extends Job['kind']>(
  fields: Partial<Extract<Job, { kind: K }>> & { id: string; kind: K; status: Job['status'] },
): Extract<Job, { kind: K }> {
  return {
    progress: 0,
    message: null,
    error: null,
    errorCode: null,
    subjectId: null,
    result: null,
    attempts: 1,
    createdBy: 'user-1',
    createdAt: '2026-11-26T08:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    ...fields,
  } as Extract<Job, { kind: K }>
}

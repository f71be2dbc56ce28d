/**
 * What the jobs list names beside its jobs: the title of each job's subject when it is a document
 * (extraction, OCR, indexing, analysis) or a recording (transcription), so the jobs view says
 * which document a job works on without fetching each document's content.
 */
import { inArray } from 'drizzle-orm'
import { z } from 'zod'
import type { Db } from '../../db/client'
import { documents, recordings } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'

export const JobSubject = z
  .object({
    id: z.string().uuid(),
    type: z.enum(['document', 'recording']),
    title: z.string(),
  })
  .meta({ id: 'JobSubject' })
export type JobSubject = z.infer<typeof JobSubject>

const isUuid = (id: string) => z.string().uuid().safeParse(id).success

/**
 * The documents and recordings among `subjectIds` (other subjects, such as an import's app, and
 * ids that are not UUIDs are left out), read under the caller's tenant in one transaction.
 */
export async function jobSubjects(
  db: Db,
  principal: Principal,
  subjectIds: (string | null)[],
): Promise<JobSubject[]> {
  const ids = [...new Set(subjectIds.filter((id): id is string => id !== null && isUuid(id)))]
  if (ids.length === 0) return []
  return withTenant(db, principal, async (tx) => {
    const docs = await tx
      .select({ id: documents.id, title: documents.title })
      .from(documents)
      .where(inArray(documents.id, ids))
    const memos = await tx
      .select({ id: recordings.id, title: recordings.title })
      .from(recordings)
      .where(inArray(recordings.id, ids))
    return [
      ...docs.map((d) => ({ ...d, type: 'document' as const })),
      ...memos.map((r) => ({ ...r, type: 'recording' as const })),
    ]
  })
}

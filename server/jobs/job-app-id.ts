/**
 * The app a job belongs to. A job has no `app_id` of its own (decision 0048): it is its subject's,
 * a document's, a recording's, a review's (a review fill, decision 0137) or a comparison's
 * (decision 0149) app, or the app itself for a job on an app (an entity import into
 * it); a job whose subject is none of them (an organisation's export, clone or import, an import
 * into no app) is the organisation's. One rule for every reader: the job service (an app-bound
 * credential reads only its app's jobs) and the realtime hub's followed jobs (decision 0125).
 */
import { sql, type SQL } from 'drizzle-orm'
import { apps, comparisons, documents, jobs, recordings, reviews } from '../db/schema'

/**
 * A UUID, any case, as an SQL literal (a constant: `subject_id` is text, and a subject that is
 * not a UUID has no app).
 */
const UUID_PATTERN = sql.raw(`'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`)

/**
 * The job's subject as a uuid, or null when it is none: compared with the subjects' primary keys
 * as uuids, so each lookup is one index probe (`documents.id::text = subject_id` would scan).
 * The CASE guards the cast: a subject that is not a UUID is never cast.
 */
const subjectUuid = sql`(CASE WHEN ${jobs.subjectId} ~* ${UUID_PATTERN} THEN ${jobs.subjectId}::uuid END)`

/**
 * An SQL expression (uuid, or null for the organisation's) of the app of the `jobs` row in scope,
 * for a query on `jobs` (unaliased), read under the caller's RLS: an app-bound principal sees
 * only its app's subjects, so another app's is null to it.
 */
export const jobAppId: SQL<string | null> = sql<string | null>`COALESCE(
  (SELECT ${documents.appId} FROM ${documents} WHERE ${documents.id} = ${subjectUuid}),
  (SELECT ${recordings.appId} FROM ${recordings} WHERE ${recordings.id} = ${subjectUuid}),
  (SELECT ${reviews.appId} FROM ${reviews} WHERE ${reviews.id} = ${subjectUuid}),
  (SELECT ${comparisons.appId} FROM ${comparisons} WHERE ${comparisons.id} = ${subjectUuid}),
  (SELECT ${apps.id} FROM ${apps} WHERE ${apps.id} = ${subjectUuid}))`

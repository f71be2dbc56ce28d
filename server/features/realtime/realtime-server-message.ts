/**
 * The union of the messages the realtime hub sends (server/realtime/realtime-messages.ts's map),
 * with a `job` message's job the catalogue's Job, named `RealtimeServerMessage` in the OpenAPI
 * document so the web app gets it typed (web/lib/api-schema.d.ts), as it gets the problem codes.
 * `checkServerMessage` is the hub's check of every message it sends outside production.
 */
import { z } from 'zod'
import { JobSchema } from '../../job-schema'
import { REALTIME_SERVER_MESSAGES as M } from '../../realtime/realtime-messages'

const JobMessage = M.job.extend({ job: JobSchema })

export const RealtimeServerMessage = z
  .discriminatedUnion('type', [
    M.subscribed,
    M.unsubscribed,
    M.change,
    JobMessage,
    M.review_cells,
    M.error,
  ])
  .meta({ id: 'RealtimeServerMessage' })

/**
 * Throws an Error when `message` is not a RealtimeServerMessage. The error names the message's
 * type and the first issue's path, never its values (rows are tenant data).
 */
export function checkServerMessage(message: unknown): void {
  const parsed = RealtimeServerMessage.safeParse(message)
  if (parsed.success) return
  const type = (message as { type?: unknown } | null)?.type
  const issue = parsed.error.issues[0]
  throw new Error(
    `The realtime hub sent a '${String(type)}' message that is not a RealtimeServerMessage: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`,
  )
}

/**
 * The 'retention' job's contract (issue 45, decision 0148): deletes what the organisation's
 * retention policies say is due, in short transactions, files after each commit, skipping what a
 * legal hold keeps. Queued daily for every organisation with a policy (the runner's recurring
 * task, features/retention/schedule.ts) and by `runRetention` (an admin's "Run now"); run by
 * features/retention/retention-job.ts. One job per organisation: the runner's fair claiming
 * shares the server between organisations. Background work, one attempt (tomorrow's run is the
 * retry). Its result counts what it deleted per kind, what a hold kept and the files the store
 * failed to remove (left to the next start's orphan walk).
 */
import { z } from 'zod'
import { defineJobContract } from '../define-job-contract'

const count = z.number().int().min(0)

export const retentionJobContract = defineJobContract({
  kind: 'retention',
  input: z.object({}),
  result: z
    .object({
      deleted: z
        .object({
          documents: count,
          recordings: count,
          conversations: count,
          storage_objects: count,
          audit_entries: count,
        })
        .describe('Items deleted per kind (audit entries counted one by one)'),
      held: count.describe('Due items a legal hold kept (skipped, the run went on)'),
      filesLeft: count.describe(
        'Files of deleted items the store failed to remove, left to the next start’s orphan walk',
      ),
    })
    .meta({ id: 'RetentionJobResult' }),
  maxAttempts: 1,
  background: true,
})

/**
 * Retention (issue 45, decision 0148): the kinds of data a retention policy names and the pure
 * verdict of a policy on one item, which `decideFate` (legal-hold.ts) weighs under any hold
 * ("hold beats retain beats delete"). The daily retention job (server/features/retention/)
 * chooses its candidates in SQL by the same rule and asks this module again for each.
 */
import type { RetentionVerdict } from './legal-hold'

/**
 * What a policy may name: documents (with their analyses, passages and files), recordings (with
 * their transcripts and audio files), conversations (with their messages), stored objects (with
 * their files) and audit entries. The table's check constraints list the same names.
 */
export const RETENTION_KINDS = [
  'documents',
  'recordings',
  'conversations',
  'storage_objects',
  'audit_entries',
] as const
export type RetentionKind = (typeof RETENTION_KINDS)[number]

/** Kinds that have an app, so an app's policy may name them; the others have the org's only. */
export const APP_RETENTION_KINDS: readonly RetentionKind[] = [
  'documents',
  'recordings',
  'conversations',
]

/** The bounds of "keep N days after last change" (the table's check constraint): a day to 100 years. */
export const RETENTION_DAYS_MIN = 1
export const RETENTION_DAYS_MAX = 36_500

const DAY_MS = 24 * 3600 * 1000

/**
 * The verdict of a policy keeping items `keepDays` days after their last change (null: forever)
 * on an item last changed at `lastChangedAt`, at `now`: `due` once strictly more than `keepDays`
 * days have passed, else `retain`; a policy of forever always retains.
 */
export function retentionVerdict(
  lastChangedAt: Date,
  keepDays: number | null,
  now: Date,
): RetentionVerdict {
  if (keepDays === null) return 'retain'
  return lastChangedAt.getTime() < now.getTime() - keepDays * DAY_MS ? 'due' : 'retain'
}

/**
 * The policy that governs an item of `kind` in app `appId` (null: none) among an organisation's
 * `policies`: the app's own policy beats the organisation's default; undefined when neither is set
 * (the item is never deleted by retention).
 */
export function governingPolicy<P extends { appId: string | null; kind: string }>(
  policies: readonly P[],
  kind: RetentionKind,
  appId: string | null,
): P | undefined {
  const own =
    appId === null ? undefined : policies.find((p) => p.kind === kind && p.appId === appId)
  return own ?? policies.find((p) => p.kind === kind && p.appId === null)
}

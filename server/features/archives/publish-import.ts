/**
 * Publication of a staged organisation import (issue 27; decisions 0063 and 0071), each in ONE
 * transaction, so an import is all or nothing: either the staging organisation becomes a new
 * organisation, or its rows move into an existing one; in the same transaction the people join,
 * the audit log and event log record it (`org.imported`, the audit entry carrying the job id,
 * which is how a retry after a crash knows the import is done) and documents without this
 * server's embeddings are queued for indexing, and the imported reviews that need one get a fill
 * (decision 0143). An import adds nobody but its importer (decision
 * 0103): the archive's members become unsent invitations; only a clone's members join.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { enterTenant, type Principal, type Tx } from '../../db/tenant'
import {
  auditLogs,
  invitation,
  member,
  organization,
  UNSENT_INVITATION_STATUS,
  user,
} from '../../db/schema'
import { AppError, notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { PASSAGE_JOB_KIND } from '../../search/index-document'
import { REVIEW_FILL_JOB_KIND } from '../../documents/app-review-fills'
import type { AppServices } from '../../services'
import { assertOrganisationAllowance } from '../../auth/organisation-limit'
import { EXPORTED_TABLES } from './archive-format'
import type { StageSummary } from './import-archive'

/** An import's invitation carries a week's expiry, as better-auth's own; sending it renews it. */
const INVITATION_DAYS = 7

/** What an import resolves to: the organisation it went into, rows per table, invitations. */
export interface ImportResult {
  orgId: string
  counts: Record<string, number>
  invitations: number
}

/** A staged import ready to publish. */
export interface StagedImport {
  stagingOrgId: string
  staged: StageSummary
  /** The person importing (the owner of a new organisation, the inviter), or null. */
  importerId: string | null
  /** The operator's command: the system's act in the logs, whoever owns the result. */
  bySystem: boolean
  jobId: string | null
  sourceOrgId: string
  /** Whether the passages kept the archive's embeddings. */
  keptEmbeddings: boolean
  /**
   * The imported documents (new ids) queued for indexing: all of them when the embeddings were
   * not kept, else those a clone copied while they were being indexed.
   */
  reindexDocumentIds: string[]
  /** Organisations the importer may own (server/auth/organisation-limit.ts); null: no limit. */
  organizationLimit: number | null
}

type Jobs = Pick<AppServices['jobs'], 'enqueue'>

/**
 * Makes the staging organisation a new organisation: the importer (if any) its owner, a clone's
 * matched members members with their role, the archive's other people unsent invitations. Throws
 * 400 `validation_failed` when it would have no owner (the operator's command without an owner),
 * 403 `organization_limit_reached` when the importer owns `s.organizationLimit` organisations
 * already.
 */
export function publishAsNewOrg(db: Db, jobs: Jobs, s: StagedImport): Promise<ImportResult> {
  const orgId = s.stagingOrgId
  const joined = [
    ...(s.importerId ? [{ userId: s.importerId, role: 'owner' }] : []),
    ...s.staged.members.filter((m) => m.userId !== s.importerId),
  ]
  const inviter = s.importerId ?? joined.find((m) => m.role === 'owner')?.userId
  if (!inviter)
    throw new AppError(
      'validation_failed',
      "Name the new organisation's owner: an import adds nobody but the person importing.",
    )
  return db.transaction(async (tx) => {
    if (s.importerId && s.organizationLimit !== null)
      await assertOrganisationAllowance(tx, s.importerId, s.organizationLimit)
    if (joined.length > 0)
      await tx
        .insert(member)
        .values(joined.map((m) => ({ id: randomUUID(), organizationId: orgId, ...m })))
    const invited = await invite(tx, orgId, inviter, s.staged.invitations)
    await tx.update(organization).set({ metadata: null }).where(eq(organization.id, orgId))
    return record(tx, jobs, orgId, s, invited)
  })
}

/**
 * Moves the staged rows into `targetOrgId` (decisions 0071 and 0080) through the database
 * function `publish_import` (migration 0052): row-level security forbids the application's roles
 * this cross-tenant move, so that SECURITY DEFINER function, which only the job runner's role
 * `lexdesk_worker` may call, moves exactly the rows of a staging organisation marked for this
 * target, in one statement (the composite (org_id, app_id) and (org_id, bucket_id) keys are
 * checked once all rows have moved), and adds the staging analytics roll-ups to the target's.
 * Then the archive's people who are neither members nor invited become unsent invitations
 * (decision 0103), and the staging organisation goes. Throws 500 `internal_error` (rolling back)
 * if a table moved fewer rows than were staged.
 */
export function publishIntoOrg(
  db: Db,
  jobs: Jobs,
  s: StagedImport,
  targetOrgId: string,
): Promise<ImportResult> {
  const tables = EXPORTED_TABLES.filter((t) => t.name !== 'org_settings').map((t) => t.name)
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL ROLE lexdesk_worker`)
    const published = (await tx.execute(
      sql`SELECT publish_import(${s.stagingOrgId}, ${targetOrgId}) AS moved`,
    )) as unknown as { rows: { moved: Record<string, number> }[] }
    await tx.execute(sql`SELECT set_config('role', 'none', true)`)
    const moved = published.rows[0]?.moved ?? {}
    for (const t of tables)
      if (Number(moved[t] ?? 0) !== (s.staged.counts[t] ?? 0))
        throw new AppError(
          'internal_error',
          `The import could not move its ${t}; nothing was imported.`,
        )
    const joining = s.staged.members.filter((m) => m.userId !== s.importerId).map(belowOwner)
    if (joining.length > 0)
      await tx
        .insert(member)
        .values(joining.map((m) => ({ id: randomUUID(), organizationId: targetOrgId, ...m })))
        .onConflictDoNothing()
    const inviter = s.importerId ?? (await anOwnerOf(tx, targetOrgId))
    const invited = await invite(tx, targetOrgId, inviter, s.staged.invitations.map(belowOwner))
    await tx.delete(organization).where(eq(organization.id, s.stagingOrgId))
    return record(tx, jobs, targetOrgId, s, invited)
  })
}

/** An archive's owner joins an existing organisation as admin: its ownership is its owners' to give. */
const belowOwner = <T extends { role: string }>(m: T): T =>
  m.role === 'owner' ? { ...m, role: 'admin' } : m

/** Some owner of `orgId` (the inviter of an operator's import), or 404. */
async function anOwnerOf(tx: Tx, orgId: string): Promise<string> {
  const [owner] = await tx
    .select({ userId: member.userId })
    .from(member)
    .where(and(eq(member.organizationId, orgId), eq(member.role, 'owner')))
    .limit(1)
  if (!owner) throw notFound('Organization')
  return owner.userId
}

/**
 * Unsent invitations of `orgId` for `people` (decision 0103), in the name of `inviterId`, but for
 * addresses of its members and addresses it has already invited (pending or unsent); resolves to
 * how many were made. Nothing is mailed: an owner or admin sends them from the Members page.
 */
async function invite(
  tx: Tx,
  orgId: string,
  inviterId: string,
  people: StageSummary['invitations'],
): Promise<number> {
  if (people.length === 0) return 0
  const emails = people.map((p) => p.email)
  const known = new Set(
    [
      ...(await tx
        .select({ email: user.email })
        .from(member)
        .innerJoin(user, eq(user.id, member.userId))
        .where(and(eq(member.organizationId, orgId), inArray(sql`lower(${user.email})`, emails)))),
      ...(await tx
        .select({ email: invitation.email })
        .from(invitation)
        .where(
          and(
            eq(invitation.organizationId, orgId),
            inArray(invitation.status, ['pending', UNSENT_INVITATION_STATUS]),
            inArray(sql`lower(${invitation.email})`, emails),
          ),
        )),
    ].map((r) => r.email.toLowerCase()),
  )
  const fresh = people.filter((p) => !known.has(p.email))
  if (fresh.length === 0) return 0
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000)
  await tx.insert(invitation).values(
    fresh.map((i) => ({
      id: randomUUID(),
      organizationId: orgId,
      email: i.email,
      role: i.role,
      status: UNSENT_INVITATION_STATUS,
      expiresAt,
      inviterId,
    })),
  )
  return fresh.length
}

/** The audit entry, event and indexing jobs of a published import, in `orgId`'s tenant. */
async function record(
  tx: Tx,
  jobs: Jobs,
  orgId: string,
  s: StagedImport,
  invitations: number,
): Promise<ImportResult> {
  const result: ImportResult = { orgId, counts: s.staged.counts, invitations }
  const rows = Object.values(s.staged.counts).reduce((a, b) => a + b, 0)
  const principal: Principal =
    s.importerId && !s.bySystem
      ? { orgId, userId: s.importerId, role: 'owner', actorType: 'user' }
      : { orgId, userId: null, role: 'owner', actorType: 'system' }
  await tx.execute(enterTenant(principal))
  await recordAudit(
    tx,
    principal,
    'org.imported',
    { type: 'organization', id: orgId },
    { jobId: s.jobId, sourceOrgId: s.sourceOrgId, rows, ...result },
  )
  await recordEvent(
    tx,
    principal,
    'org.imported',
    { jobId: s.jobId, sourceOrgId: s.sourceOrgId, rows },
    null,
  )
  // Passages without this server's embeddings, or perhaps not all there, are indexed afresh.
  for (const documentId of s.reindexDocumentIds)
    await jobs.enqueue(tx, principal, PASSAGE_JOB_KIND, { documentId }, { subjectId: documentId })
  for (const reviewId of await reviewsToFill(tx, s.staged.reviewIds))
    await jobs.enqueue(tx, principal, REVIEW_FILL_JOB_KIND, { reviewId }, { subjectId: reviewId })
  return result
}

/** Imported reviews per statement of reviewsToFill (bounded parameters). */
const REVIEWS_PER_READ = 1000

/**
 * Of the imported reviews `reviewIds` (published, read in the importing organisation's tenant),
 * those a fill has work for (decision 0143): an app-wide review (its fill adds the app's imported
 * documents that are not rows yet), or one with a pending cell (a running one came back pending)
 * or a row whose cells are not written yet. Nothing else queues fills for imported documents:
 * they are written by staging, not by insertDocument (server/documents/app-review-fills.ts).
 */
async function reviewsToFill(tx: Tx, reviewIds: readonly string[]): Promise<string[]> {
  const found: string[] = []
  for (let i = 0; i < reviewIds.length; i += REVIEWS_PER_READ) {
    const ids = sql.join(
      reviewIds.slice(i, i + REVIEWS_PER_READ).map((id) => sql`${id}::uuid`),
      sql`, `,
    )
    const result = (await tx.execute(sql`
      SELECT v.id FROM reviews v
      WHERE v.id IN (${ids})
        AND ((v.row_source = 'app' AND v.app_id IS NOT NULL)
          OR EXISTS (SELECT 1 FROM review_cells c WHERE c.review_id = v.id AND c.state = 'pending')
          OR EXISTS (SELECT 1 FROM review_rows r WHERE r.review_id = v.id
                       AND NOT EXISTS (SELECT 1 FROM review_cells c WHERE c.row_id = r.id)))
      ORDER BY v.id`)) as unknown as { rows: { id: string }[] }
    found.push(...result.rows.map((r) => r.id))
  }
  return found
}

/**
 * The result of job `jobId`'s import if it was already published (a retry after a crash between
 * publication and the job's end finishes there instead of importing twice), else null.
 */
export async function publishedImport(db: Db, jobId: string): Promise<ImportResult | null> {
  const [entry] = await db
    .select({ meta: auditLogs.meta })
    .from(auditLogs)
    .where(and(eq(auditLogs.action, 'org.imported'), sql`${auditLogs.meta}->>'jobId' = ${jobId}`))
    .limit(1)
  if (!entry) return null
  const meta = entry.meta as unknown as ImportResult
  return { orgId: meta.orgId, counts: meta.counts, invitations: meta.invitations }
}

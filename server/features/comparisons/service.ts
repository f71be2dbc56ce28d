/**
 * Comparisons (issue 46, decision 0149): two documents of the organisation compared clause by
 * clause by the 'comparison' job (comparison-job.ts), the result stored in `comparisons`
 * (stored-comparison.ts), its redlines built from it on request. Everything runs under the
 * principal's RLS: another organisation's comparison or document, or another app's for an
 * app-bound credential, is a 404 like a missing one. Creating and deleting are audited.
 */
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { comparisons, documents, jobs } from '../../db/schema'
import { withTenant, type Principal, type Tx } from '../../db/tenant'
import { assertCreatorOrAdmin } from '../../db/assert-creator-or-admin'
import { AppError, notFound } from '../../errors/app-error'
import { readListPage, type PageWindow } from '../../lists/list-kit'
import { recordAudit } from '../../audit/record-audit'
import { cancelSubjectJobs, type JobOfKind, type JobStatus } from '../../jobs/job-service'
import type { comparisonJobContract } from '../../jobs/contracts/comparison-job-contract'
import type { AppServices } from '../../services'
import { redlineHtml } from '../../compare/redline-html'
import { poolTask, type WorkerPool } from '../../workers/worker-pool'
import type { RedlineTaskInput } from './compare-task'
import { rebuildSegments, StoredComparison } from './stored-comparison'

/** What the routes and the MCP tool need: the database and the job runner. */
export type ComparisonDeps = { db: Db; jobs: AppServices['jobs'] }

/**
 * Characters of each version a comparison takes at most: about 300 pages. The engine compared a
 * 300,000-character contract in 181–647 ms on a loaded 2-core machine (decision 0146), so a
 * comparison at this cap takes seconds on a pool thread, and its stored result stays a few MB.
 */
export const MAX_COMPARE_CHARACTERS = 1_000_000

export const COMPARISON_STATES = ['queued', 'running', 'done', 'failed'] as const
export type ComparisonState = (typeof COMPARISON_STATES)[number]

type ComparisonJob = JobOfKind<typeof comparisonJobContract>

const CREATOR_OR_ADMIN = {
  code: 'forbidden',
  detail: 'Only the comparison’s creator or an admin may delete it',
} as const

/** The columns of a comparison without its result (lists). */
const SUMMARY = {
  id: comparisons.id,
  appId: comparisons.appId,
  baseDocumentId: comparisons.baseDocumentId,
  revisedDocumentId: comparisons.revisedDocumentId,
  state: comparisons.state,
  error: comparisons.error,
  substantiveChanges: comparisons.substantiveChanges,
  formatChanges: comparisons.formatChanges,
  moves: comparisons.moves,
  createdBy: comparisons.createdBy,
  createdAt: comparisons.createdAt,
  finishedAt: comparisons.finishedAt,
}

type SummaryRow = { [K in keyof typeof SUMMARY]: (typeof comparisons.$inferSelect)[K] }

/** The API shape of a comparison without its result. */
function toSummary(row: SummaryRow) {
  return {
    id: row.id,
    appId: row.appId,
    baseDocumentId: row.baseDocumentId,
    revisedDocumentId: row.revisedDocumentId,
    state: row.state as ComparisonState,
    error: row.error,
    counts:
      row.substantiveChanges === null || row.formatChanges === null || row.moves === null
        ? null
        : {
            substantive: row.substantiveChanges,
            formatOnly: row.formatChanges,
            moves: row.moves,
          },
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }
}

/** What a comparison whose job ended without it says (the job's own failure path never ran). */
const STOPPED = 'The comparison was stopped before it finished. Compare the documents again.'

/**
 * `summary` as its latest job left it: a comparison still queued or running whose job was
 * cancelled before it ran, or ended without reaching its handler's own failure path, is failed.
 */
function asJobEnded<T extends { state: ComparisonState; error: string | null }>(
  summary: T,
  jobStatus: string | null,
): T {
  const ended =
    (summary.state === 'queued' || summary.state === 'running') &&
    (jobStatus === 'cancelled' || jobStatus === 'failed')
  return ended ? { ...summary, state: 'failed' as const, error: STOPPED } : summary
}

/** The comparison `id` as the caller sees it (RLS), or 404 `comparison_not_found`. */
async function findComparison(tx: Tx, id: string) {
  const [row] = await tx.select().from(comparisons).where(eq(comparisons.id, id)).limit(1)
  if (!row) throw notFound('Comparison')
  return row
}

/** The latest job of comparison `id`, as progress for the screen. */
async function latestJob(tx: Tx, id: string) {
  const [job] = await tx
    .select({ id: jobs.id, status: jobs.status, progress: jobs.progress, message: jobs.message })
    .from(jobs)
    .where(and(eq(jobs.kind, 'comparison'), eq(jobs.subjectId, id)))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1)
  return job
    ? {
        jobId: job.id,
        status: job.status as JobStatus,
        progress: job.progress,
        message: job.message,
      }
    : null
}

/**
 * Creates a comparison of `baseDocumentId` (the earlier version) with `revisedDocumentId` and
 * queues its job, in one transaction (audited 'comparison.create'). Both must be documents the
 * caller sees (404 `document_not_found` otherwise, as for a missing one); each with text (422
 * `no_text`: a scan waiting for OCR) and at most MAX_COMPARE_CHARACTERS (413
 * `comparison_too_large`). Its app is the caller's (an app-bound
 * credential sees only its app's documents), else the documents' when both have the same one,
 * else none. Resolves to the comparison and its job.
 */
export async function createComparison(
  deps: ComparisonDeps,
  principal: Principal,
  input: { baseDocumentId: string; revisedDocumentId: string },
) {
  return withTenant(deps.db, principal, async (tx) => {
    const found = await tx
      .select({
        id: documents.id,
        appId: documents.appId,
        length: sql<number>`char_length(${documents.content})`.mapWith(Number),
        hasText: sql<boolean>`btrim(${documents.content}) <> ''`,
      })
      .from(documents)
      .where(or(eq(documents.id, input.baseDocumentId), eq(documents.id, input.revisedDocumentId)))
    const base = found.find((d) => d.id === input.baseDocumentId)
    const revised = found.find((d) => d.id === input.revisedDocumentId)
    if (!base || !revised) throw notFound('Document')
    for (const document of [base, revised]) {
      if (!document.hasText)
        throw new AppError(
          'no_text',
          'This document has no text to compare yet (a scan is read by OCR first). Compare it once its text has been read.',
        )
      if (document.length > MAX_COMPARE_CHARACTERS)
        throw new AppError(
          'comparison_too_large',
          `A comparison takes versions of at most ${MAX_COMPARE_CHARACTERS.toLocaleString('en-US')} characters; this one has ${document.length.toLocaleString('en-US')}.`,
        )
    }
    const appId = principal.appId ?? (base.appId === revised.appId ? base.appId : null)
    const [row] = await tx
      .insert(comparisons)
      .values({
        orgId: principal.orgId,
        appId,
        baseDocumentId: base.id,
        revisedDocumentId: revised.id,
        createdBy: principal.userId,
      })
      .returning()
    if (!row) throw new Error('insert returned no row')
    const job: ComparisonJob = await deps.jobs.enqueue(
      tx,
      principal,
      'comparison',
      { comparisonId: row.id },
      { subjectId: row.id },
    )
    await recordAudit(
      tx,
      principal,
      'comparison.create',
      { type: 'comparison', id: row.id },
      { baseDocumentId: base.id, revisedDocumentId: revised.id },
    )
    return { ...toSummary(row), job }
  })
}

/**
 * The organisation's comparisons (an app-bound credential: its app's), newest first; with
 * `documentId`, those comparing that document (as either version).
 */
export async function listComparisons(
  db: Db,
  principal: Principal,
  query: PageWindow & { documentId?: string },
) {
  const where: SQL | undefined = query.documentId
    ? or(
        eq(comparisons.baseDocumentId, query.documentId),
        eq(comparisons.revisedDocumentId, query.documentId),
      )
    : undefined
  const { rows, total } = await readListPage(db, principal, query, (tx) => ({
    rows: tx
      .select({
        ...SUMMARY,
        // Written out: drizzle names a select's columns unqualified, and inside this subquery an
        // unqualified "id" would be the job's.
        jobStatus: sql<string | null>`(SELECT j.status FROM jobs j
          WHERE j.kind = 'comparison' AND j.subject_id = comparisons.id::text
          ORDER BY j.created_at DESC, j.id DESC LIMIT 1)`,
      })
      .from(comparisons)
      .where(where)
      .orderBy(desc(comparisons.createdAt), desc(comparisons.id)),
    total: tx
      .select({ n: count() })
      .from(comparisons)
      .where(where)
      .then((r) => r[0]?.n ?? 0),
  }))
  return { items: rows.map((row) => asJobEnded(toSummary(row), row.jobStatus)), total }
}

/**
 * Comparison `id` with its result (null until done) and its latest job; 404 otherwise. A
 * comparison still queued or running whose latest job was cancelled or failed is answered as
 * failed.
 */
export async function readComparison(db: Db, principal: Principal, id: string) {
  return withTenant(db, principal, async (tx) => {
    const row = await findComparison(tx, id)
    const parsed = row.result === null ? null : StoredComparison.safeParse(row.result)
    const job = await latestJob(tx, id)
    return {
      ...asJobEnded(toSummary(row), job?.status ?? null),
      job,
      result: parsed?.success ? parsed.data : null,
    }
  })
}

/**
 * Deletes comparison `id` (its creator or an admin, 403 otherwise; audited) and stops its job;
 * 404 `comparison_not_found`. The documents stay.
 */
export async function deleteComparison(db: Db, principal: Principal, id: string) {
  await withTenant(db, principal, async (tx) => {
    const row = await findComparison(tx, id)
    assertCreatorOrAdmin(principal, row.createdBy, CREATOR_OR_ADMIN)
    await cancelSubjectJobs(tx, [id])
    await tx.delete(comparisons).where(eq(comparisons.id, id))
    await recordAudit(
      tx,
      principal,
      'comparison.delete',
      { type: 'comparison', id },
      { baseDocumentId: row.baseDocumentId, revisedDocumentId: row.revisedDocumentId },
    )
  })
}

/**
 * A done comparison's stored result with both texts and titles, read in one tenant read. 409
 * `comparison_not_ready` until it is done (or when it failed).
 */
async function readForRedline(db: Db, principal: Principal, id: string) {
  return withTenant(db, principal, async (tx) => {
    const row = await findComparison(tx, id)
    const stored = row.result === null ? null : StoredComparison.safeParse(row.result)
    if (row.state !== 'done' || !stored?.success)
      throw new AppError(
        'comparison_not_ready',
        row.state === 'failed'
          ? 'This comparison failed; compare the documents again.'
          : 'This comparison is not finished yet; follow its job and try again when it is done.',
      )
    const texts = await tx
      .select({ id: documents.id, title: documents.title, content: documents.content })
      .from(documents)
      .where(or(eq(documents.id, row.baseDocumentId), eq(documents.id, row.revisedDocumentId)))
    const base = texts.find((d) => d.id === row.baseDocumentId)
    const revised = texts.find((d) => d.id === row.revisedDocumentId)
    // The foreign keys delete a comparison with either document: both are there.
    if (!base || !revised) throw notFound('Document')
    return { base, revised, stored: stored.data }
  })
}

/** Wall-clock limit of building and verifying a DOCX redline on its thread (ms). */
const REDLINE_TIMEOUT_MS = 60_000

const REDLINE = poolTask<RedlineTaskInput, Uint8Array>(
  new URL('./compare-task.ts', import.meta.url),
  'redlineTask',
)

/**
 * The tracked-changes DOCX of done comparison `id` (w:ins, w:del, w:moveFrom / w:moveTo, author
 * "Lexdesk"), built and verified on a worker pool thread (compare-task.ts redlineTask: accept-all
 * must give the revised text, reject-all the base; a mismatch is a server bug, thrown as such),
 * with a file name from the titles. Errors as readForRedline, and 409 `comparison_stale` when a
 * text changed since it was compared.
 */
export async function comparisonDocx(
  deps: { db: Db; pool: WorkerPool },
  principal: Principal,
  id: string,
) {
  const { base, revised, stored } = await readForRedline(deps.db, principal, id)
  const bytes = await deps.pool.run(
    REDLINE,
    { base: base.content, revised: revised.content, stored },
    { orgId: principal.orgId, timeoutMs: REDLINE_TIMEOUT_MS },
  )
  return { bytes, fileName: `${fileStem(revised.title)} - redline.docx` }
}

/**
 * The HTML redline of done comparison `id`: a standalone page (escaped text, `<ins>`, `<del>`,
 * moves as `class="moved-from"` / `"moved-to"` with `data-move`; redline-html.ts) with no script
 * and no external resource. Errors as comparisonDocx.
 */
export async function comparisonHtml(db: Db, principal: Principal, id: string) {
  const { base, revised, stored } = await readForRedline(db, principal, id)
  const segments = rebuildSegments(stored, base.content, revised.content)
  const title = escapeHtml(`${revised.title} compared with ${base.title}`)
  const html =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<title>${title}</title></head><body>` +
    `<h1>${title}</h1>` +
    '<p>Inserted text is underlined, deleted text struck through; a moved clause shows at both ends (moved-from, moved-to).</p>' +
    // No style: the page is served under `default-src 'none'` (media/file-download.ts), so its
    // line breaks are elements (the fragment's tags never hold a line break).
    `<div>${redlineHtml(segments).replace(/\n/g, '<br>\n')}</div></body></html>\n`
  return { html, fileName: `${fileStem(revised.title)} - redline.html` }
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** A file name's stem from a title: letters, digits, single spaces and dashes only. */
function fileStem(title: string): string {
  return (
    title
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[^\p{L}\p{N}-]+/gu, ' ')
      .trim()
      .slice(0, 80) || 'comparison'
  )
}

/** How long compare_documents waits for its comparison (ms) before answering with its state. */
export const MCP_COMPARE_WAIT_MS = 30_000
const WAIT_STEP_MS = 250

/**
 * Comparison `id` once it is done or failed, or as it stands after `waitMs` (readComparison's
 * shape): for the MCP tool, whose calls answer in one response. Reads it every 250 ms.
 */
export async function awaitComparison(
  db: Db,
  principal: Principal,
  id: string,
  waitMs: number = MCP_COMPARE_WAIT_MS,
) {
  const until = Date.now() + waitMs
  for (;;) {
    const comparison = await readComparison(db, principal, id)
    if (comparison.state === 'done' || comparison.state === 'failed' || Date.now() >= until)
      return comparison
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS))
  }
}

/**
 * A comparison's changes for an assistant: `substantiveOnly` drops changes of form; each change
 * cites both versions (document id, span, quoted text cut at 600 characters) and names the clause
 * (label and caption) in each; a page of them from `offset`.
 */
export function citedChanges(
  comparison: Awaited<ReturnType<typeof readComparison>>,
  options: { substantiveOnly: boolean; limit: number; offset: number },
) {
  const result = comparison.result
  if (!result) return { total: 0, changes: [] }
  const clause = (clauses: StoredComparison['baseClauses'], index: number | null) => {
    const found = index === null ? undefined : clauses[index]
    return found ? { label: found.label, heading: found.heading } : null
  }
  const kept = result.changes.filter((c) => !options.substantiveOnly || c.substantive)
  return {
    total: kept.length,
    changes: kept.slice(options.offset, options.offset + options.limit).map((c) => ({
      kind: c.kind,
      substantive: c.substantive,
      format: c.format,
      note: c.note,
      base: {
        documentId: comparison.baseDocumentId,
        start: c.base.start,
        end: c.base.end,
        text: c.baseText,
        clause: clause(result.baseClauses, c.baseClause),
      },
      revised: {
        documentId: comparison.revisedDocumentId,
        start: c.revised.start,
        end: c.revised.end,
        text: c.revisedText,
        clause: clause(result.revisedClauses, c.revisedClause),
      },
    })),
  }
}

/**
 * Document analysis: runs the configured Analyzer over a document's content (on the worker pool
 * for the local engine) and stores the result, always as an 'analysis' job (analysis-job.ts), so
 * the client has one path whatever the document's length. The document is read in one tenant
 * transaction and the result written in another, so a long analysis never holds a transaction
 * open.
 */
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { analyses, documents } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readPage } from '../../lists/list-kit'
import { AppError, notFound } from '../../errors/app-error'
import type {
  AnalysisKind,
  AnalysisResult,
  AnalyzeOptions,
  Analyzer,
} from '../../ai/analyzer/types'
import type { JobOfKind } from '../../jobs/job-service'
import type { analysisJobContract } from '../../jobs/contracts/analysis-job-contract'
import type { AppServices } from '../../services'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { orientRisks } from '../../ai/analyzer/orient-risks'
import { partyWeActFor, storedWeActFor, type WeActFor } from '../../ai/analyzer/we-act-for'

type AnalysisRow = typeof analyses.$inferSelect

/**
 * The text of document `documentId` of the principal's org and whom the firm acts for in it,
 * read under RLS. Throws a 404 problem when it does not exist or belongs to another org (the
 * documents feature owns writes; analysis only reads the shared table, so the two features stay
 * independent).
 */
async function readDocument(db: Db, principal: Principal, documentId: string) {
  const [found] = await withTenant(db, principal, (tx) =>
    tx
      .select({ content: documents.content, weActFor: documents.weActFor })
      .from(documents)
      .where(eq(documents.id, documentId))
      .limit(1),
  )
  if (!found) throw notFound('Document')
  return { content: found.content, weActFor: storedWeActFor(found.weActFor) }
}

/**
 * The API shape of a stored analysis, its risks oriented to `weActFor` (the document's choice,
 * resolved against this analysis's own parties; a choice none of them matches orients nothing):
 * each risk says whose it is and why (orientRisks). `ourParty` is the party the choice resolved
 * to.
 */
export function toAnalysis(row: AnalysisRow, weActFor: WeActFor | null) {
  const stored = row.result as AnalysisResult
  const parties = stored.keyTerms.parties
  const ours = weActFor ? partyWeActFor(weActFor, parties) : null
  return {
    id: row.id,
    documentId: row.documentId,
    kind: row.kind as AnalysisKind,
    engine: row.engine,
    model: row.model,
    result: { ...stored, risks: orientRisks(stored.risks, parties, ours) },
    weActFor,
    ourParty: ours?.name ?? null,
    createdAt: row.createdAt.toISOString(),
  }
}

/**
 * Lists a document's analyses newest first, each oriented to the document's "we act for" choice
 * (toAnalysis); 404 if the document is not the org's.
 */
export async function listAnalyses(
  db: Db,
  principal: Principal,
  documentId: string,
  page: { limit: number; offset: number },
) {
  const { weActFor } = await readDocument(db, principal, documentId)
  const where = eq(analyses.documentId, documentId)
  const { rows, total } = await readPage(db, principal, analyses, {
    where,
    orderBy: [desc(analyses.createdAt), desc(analyses.id)],
    ...page,
  })
  return { items: rows.map((row) => toAnalysis(row, weActFor)), total }
}

/** What an analysis needs: the database and the configured engine. */
export type AnalysisDeps = { db: Db; analyzer: Analyzer }

/**
 * Queues an analysis of document `documentId` as an 'analysis' job and resolves to the job (its
 * result, once it succeeds: `{ analysisId }`). Throws 404 for a document that is not the org's
 * and 422 `no_text` when it has no text, before anything is queued; the engine's failures end
 * the job (502 `analysis_failed`, 422 `analysis_timeout`…, as the job's `errorCode`).
 */
export async function startAnalysis(
  deps: { db: Db; jobs: AppServices['jobs'] },
  principal: Principal,
  documentId: string,
  kind: AnalysisKind,
): Promise<JobOfKind<typeof analysisJobContract>> {
  await readAnalysableDocument(deps.db, principal, documentId)
  return withTenant(deps.db, principal, (tx) =>
    deps.jobs.enqueue(
      tx,
      principal,
      'analysis',
      { documentId, kind },
      {
        subjectId: documentId,
      },
    ),
  )
}

/**
 * The document's text for an analysis; 404 when it is not the org's, 422 `no_text` when it has
 * none (a scanned PDF).
 */
export async function readAnalysableDocument(db: Db, principal: Principal, documentId: string) {
  const { content } = await readDocument(db, principal, documentId)
  if (content.trim().length === 0) {
    throw new AppError('no_text', 'This document has no text to analyze (scanned PDF?).')
  }
  return { id: documentId, content }
}

/** Runs the engine over the document and stores the result (audited). */
export async function analyzeAndStore(
  deps: AnalysisDeps,
  principal: Principal,
  document: { id: string; content: string },
  kind: AnalysisKind,
  options: AnalyzeOptions,
): Promise<AnalysisRow> {
  let result: AnalysisResult
  try {
    result = await deps.analyzer.analyze(document.content, kind, options)
  } catch (error) {
    if (options.signal?.aborted || error instanceof AppError) throw error
    // The engine's own message may name internal hosts; it goes to the log, not to the client.
    throw new AppError(
      'analysis_failed',
      'The analysis engine failed on this document. Try again, or ask an administrator to check the server log.',
      {},
      error,
    )
  }
  const documentId = document.id
  return withTenant(deps.db, principal, async (tx) => {
    const [row] = await tx
      .insert(analyses)
      .values({
        orgId: principal.orgId,
        documentId,
        kind,
        engine: result.engine,
        model: result.model,
        result,
        createdBy: principal.userId,
      })
      .returning()
    if (!row) throw new Error('insert returned no row')
    await recordAudit(
      tx,
      principal,
      'analysis.create',
      { type: 'analysis', id: row.id },
      { documentId, kind },
    )
    await recordEvent(tx, principal, 'analysis.finished', { documentId, analysisId: row.id, kind })
    return row
  })
}

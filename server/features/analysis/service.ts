/**
 * Document analysis: runs the configured Analyzer over a document's content (off the event loop
 * for the local engine) and stores the result. The document is read in one tenant transaction and
 * the result written in another, so a long analysis never holds a transaction open.
 */
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { analyses, documents } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import type { AnalysisKind, AnalysisResult, Analyzer } from '../../ai/analyzer/types'
import { recordAudit } from '../../audit/record-audit'

type AnalysisRow = typeof analyses.$inferSelect

/**
 * The text of document `documentId` of the principal's org, read under RLS. Throws a 404 problem
 * when it does not exist or belongs to another org (the documents feature owns writes; analysis
 * only reads the shared table, so the two features stay independent).
 */
async function readDocumentContent(db: Db, principal: Principal, documentId: string) {
  const [found] = await withTenant(db, principal, (tx) =>
    tx
      .select({ content: documents.content })
      .from(documents)
      .where(eq(documents.id, documentId))
      .limit(1),
  )
  if (!found) throw notFound('Document')
  return found.content
}

/** The API shape of a stored analysis. */
export function toAnalysis(row: AnalysisRow) {
  return {
    id: row.id,
    documentId: row.documentId,
    kind: row.kind as AnalysisKind,
    engine: row.engine,
    model: row.model,
    result: row.result as AnalysisResult,
    createdAt: row.createdAt.toISOString(),
  }
}

/** Lists a document's analyses newest first; 404 if the document is not the org's. */
export async function listAnalyses(db: Db, principal: Principal, documentId: string) {
  await readDocumentContent(db, principal, documentId)
  return withTenant(db, principal, (tx) =>
    tx
      .select()
      .from(analyses)
      .where(eq(analyses.documentId, documentId))
      .orderBy(desc(analyses.createdAt)),
  )
}

/**
 * Analyses a document of the org with `analyzer` and stores the result. Throws 404 for a document
 * that is not the org's, 422 when it has no text, 502 when the engine fails (its message kept).
 */
export async function analyzeDocument(
  deps: { db: Db; analyzer: Analyzer },
  principal: Principal,
  documentId: string,
  kind: AnalysisKind,
) {
  const content = await readDocumentContent(deps.db, principal, documentId)
  if (content.trim().length === 0) {
    throw new AppError('no_text', 422, 'This document has no text to analyze (scanned PDF?).')
  }
  let result: AnalysisResult
  try {
    result = await deps.analyzer.analyze(content, kind)
  } catch (error) {
    // The engine's own message may name internal hosts; it goes to the log, not to the client.
    throw new AppError(
      'analysis_failed',
      502,
      'The analysis engine failed on this document. Try again, or ask an administrator to check the server log.',
      {},
      error,
    )
  }
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
    return row
  })
}

/**
 * Document analysis: runs the configured Analyzer over a document's content (on the worker pool
 * for the local engine) and stores the result; long documents go through a background job. The
 * document is read in one tenant transaction and the result written in another, so a long
 * analysis never holds a transaction open.
 */
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { analyses, documents } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readPage } from '../../db/read-page'
import { AppError, notFound } from '../../errors/app-error'
import type {
  AnalysisKind,
  AnalysisResult,
  AnalyzeOptions,
  Analyzer,
} from '../../ai/analyzer/types'
import { enqueueJob, type Job } from '../../jobs/job-service'
import { jobPrincipal, type JobHandler } from '../../jobs/job-runner'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'

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
export async function listAnalyses(
  db: Db,
  principal: Principal,
  documentId: string,
  page: { limit: number; offset: number },
) {
  await readDocumentContent(db, principal, documentId)
  const where = eq(analyses.documentId, documentId)
  return readPage(db, principal, analyses, {
    where,
    orderBy: [desc(analyses.createdAt), desc(analyses.id)],
    ...page,
  })
}

/**
 * Documents longer than this many characters are analysed as a background job (202 with the job);
 * shorter ones answer at once (201). The local engine takes well under a second below it.
 */
export const SYNC_ANALYSIS_MAX_CHARS = 60_000

/** The input of an 'analysis' job. */
export interface AnalysisJobInput {
  documentId: string
  kind: AnalysisKind
  /** The party the firm acts for; risks are oriented to it. */
  ourParty?: string
}

type AnalysisDeps = { db: Db; analyzer: Analyzer }

/**
 * Starts an analysis: short documents are analysed now (`{ analysis }`), long ones are queued as
 * an 'analysis' job (`{ job }`). Throws 404 for a document that is not the org's, 422 when it has
 * no text, and (now) 502 when the engine fails.
 */
export async function startAnalysis(
  deps: AnalysisDeps,
  principal: Principal,
  documentId: string,
  kind: AnalysisKind,
  ourParty?: string,
): Promise<{ analysis: AnalysisRow } | { job: Job }> {
  const document = await readAnalysableDocument(deps.db, principal, documentId)
  if (document.content.length <= SYNC_ANALYSIS_MAX_CHARS)
    return { analysis: await analyzeAndStore(deps, principal, document, kind, { ourParty }) }
  const input: AnalysisJobInput = { documentId, kind, ourParty }
  const job = await withTenant(deps.db, principal, (tx) =>
    enqueueJob(tx, principal, { kind: 'analysis', subjectId: documentId, input }),
  )
  return { job }
}

/** The job handler of 'analysis' jobs: the same analysis, with progress and cancel. */
export function analysisJobHandler(deps: AnalysisDeps): JobHandler {
  return {
    kind: 'analysis',
    async run(job, context) {
      const input = job.input as AnalysisJobInput
      const principal = jobPrincipal(job)
      context.progress(0.02, 'Reading the document')
      const document = await readAnalysableDocument(deps.db, principal, input.documentId)
      const row = await analyzeAndStore(deps, principal, document, input.kind, {
        ourParty: input.ourParty,
        signal: context.signal,
        onProgress: (fraction, message) => context.progress(0.05 + fraction * 0.9, message),
      })
      return { analysisId: row.id }
    },
  }
}

async function readAnalysableDocument(db: Db, principal: Principal, documentId: string) {
  const content = await readDocumentContent(db, principal, documentId)
  if (content.trim().length === 0) {
    throw new AppError('no_text', 'This document has no text to analyze (scanned PDF?).')
  }
  return { id: documentId, content }
}

/** Runs the engine over the document and stores the result (audited). */
async function analyzeAndStore(
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

/**
 * The tools of the MCP server (/mcp, server/features/mcp), composed here from the features' own
 * services (features never import each other): search passages with citations, list and read
 * documents and their analyses, list and create entities, recent conversations, list reviews and
 * read their cells, compare two documents, check a document against a playbook. Each runs the
 * same service call as its `/api/v1` route, under the caller's principal (RLS through
 * withTenant), so a tool can see and do exactly what the route lets the same credential.
 */
import { z } from 'zod'
import type { AppServices } from './services'
import { hybridSearch } from './search/hybrid-search'
import { getDocument, listDocuments, toDocument } from './features/documents/service'
import { listAnalyses } from './features/analysis/service'
import { createEntity, listEntities } from './features/entities/service'
import { NewEntity } from './features/entities/schemas'
import { listRecentConversations } from './features/connect-gpt/service'
import { listCells, listReviews, readReview } from './features/reviews/service'
import { CellState } from './features/reviews/schemas'
import {
  awaitComparison,
  citedChanges,
  createComparison,
  MCP_COMPARE_WAIT_MS,
} from './features/comparisons/service'
import { createCheck, listPlaybooks, readCheck } from './features/playbooks/service'
import { assistantTool, type AssistantTool } from './auth/assistant-tool'
import { AppError } from './errors/app-error'

const Limit = (fallback: number, max: number) =>
  z.number().int().min(1).max(max).default(fallback).describe(`How many, 1–${max}`)
const Offset = z.number().int().min(0).default(0).describe('How many to skip (paging)')
const DocumentId = z.string().uuid().describe('A document id, as list_documents gives it')

/** The most characters read_document returns at once (a long contract is read in parts). */
export const READ_DOCUMENT_MAX_CHARS = 100_000

/** The MCP tools over `services`. */
export function assistantTools(
  services: Pick<AppServices, 'db' | 'engines' | 'jobs'>,
): AssistantTool[] {
  const { db } = services
  return [
    assistantTool({
      name: 'search_passages',
      description:
        "Searches the firm's documents by meaning and words. Each passage is a citation: n, document id and title, and the character span [start, end) of the quote in the document.",
      scope: 'read',
      input: {
        query: z.string().trim().min(1).max(2000).describe('What to look for, in plain words'),
        k: Limit(8, 50),
        documentId: DocumentId.optional().describe('Search one document only'),
      },
      async run(principal, input) {
        const hits = await hybridSearch(db, services.engines.embedder, principal, {
          text: input.query,
          k: input.k,
          scope: { documentId: input.documentId, appId: principal.appId ?? undefined },
        })
        return hits.map((hit, i) => ({
          n: i + 1,
          documentId: hit.documentId,
          documentTitle: hit.documentTitle,
          start: hit.start,
          end: hit.end,
          quote: hit.content,
          score: Number(hit.score),
        }))
      },
    }),
    assistantTool({
      name: 'list_documents',
      description:
        "Lists the firm's documents newest first (id, title, type, short preview); q filters by title or text.",
      scope: 'read',
      input: { q: z.string().max(200).optional(), limit: Limit(20, 100), offset: Offset },
      run: (principal, input) => listDocuments(db, principal, input),
    }),
    assistantTool({
      name: 'read_document',
      description: `Reads a document's text from character \`start\` (default 0), at most ${READ_DOCUMENT_MAX_CHARS} characters at a time; \`length\` is the whole text's length.`,
      scope: 'read',
      input: { documentId: DocumentId, start: z.number().int().min(0).default(0) },
      async run(principal, input) {
        const { content, ...document } = toDocument(
          await getDocument(db, principal, input.documentId),
        )
        const end = Math.min(content.length, input.start + READ_DOCUMENT_MAX_CHARS)
        return {
          ...document,
          length: content.length,
          start: input.start,
          end,
          text: content.slice(input.start, end),
        }
      },
    }),
    assistantTool({
      name: 'list_analyses',
      description:
        "Lists a document's AI analyses (summary, clauses, risks) newest first; findings cite their passages by character span.",
      scope: 'read',
      input: { documentId: DocumentId, limit: Limit(10, 50), offset: Offset },
      async run(principal, { documentId, ...page }) {
        return listAnalyses(db, principal, documentId, page)
      },
    }),
    assistantTool({
      name: 'list_entities',
      description:
        "Lists the firm's entities (clients, matters, parties: typed records with JSON data); q filters by name or type, type by exact type.",
      scope: 'read',
      input: {
        q: z.string().max(200).optional(),
        type: z.string().max(100).optional(),
        limit: Limit(20, 100),
        offset: Offset,
      },
      run: (principal, input) => listEntities(db, principal, input),
    }),
    assistantTool({
      name: 'create_entity',
      description:
        'Creates an entity (name, type, optional JSON data). Recorded in the audit log as done by this MCP client. Ask the user first.',
      scope: 'write',
      input: NewEntity.shape,
      run: (principal, input) => createEntity(db, principal, input),
    }),
    assistantTool({
      name: 'list_recent_conversations',
      description:
        "The firm's latest conversations with Lexdesk's assistant, newest first, each with its first question and number of messages.",
      scope: 'read',
      input: { lim: Limit(10, 50) },
      run: (principal, input) => listRecentConversations(db, principal, input.lim),
    }),
    assistantTool({
      name: 'list_reviews',
      description:
        "Lists the firm's review grids (documents × questions, every answer cited) newest first: id, name, when made.",
      scope: 'read',
      input: { limit: Limit(20, 100), offset: Offset },
      run: (principal, input) => listReviews(db, principal, input),
    }),
    assistantTool({
      name: 'read_review_cells',
      description:
        "Reads a review grid: its columns (questions) and a page of its cells in grid order, each with its state, typed answer (or a lawyer's override, shown instead) and citations as character spans [start, end) of its document with the quoted text. Filter by column or state.",
      scope: 'read',
      input: {
        reviewId: z.string().uuid().describe('A review id, as list_reviews gives it'),
        columnId: z.string().uuid().optional(),
        state: CellState.optional(),
        limit: Limit(100, 500),
        offset: Offset,
      },
      async run(principal, { reviewId, ...query }) {
        const review = await readReview(db, principal, reviewId)
        return { review, cells: await listCells(db, principal, reviewId, query) }
      },
    }),
    assistantTool({
      name: 'compare_documents',
      description: `Compares two versions of a contract clause by clause (what the other side changed in their markup): moved clauses as moves, words changed inside aligned clauses, changes of form (spacing, punctuation, case, renumbering) told apart. Give baseDocumentId (the earlier version) and revisedDocumentId, or the comparisonId of an earlier call. Waits up to ${MCP_COMPARE_WAIT_MS / 1000} s for the comparison; if it is not done by then, call again with its comparisonId. Each change cites both versions: document id, character span [start, end) and quoted text, with the clause's number and caption. Recorded in the audit log as done by this MCP client; the comparison is kept (its redlines are in Lexdesk).`,
      scope: 'write',
      input: {
        baseDocumentId: DocumentId.optional().describe('The earlier version'),
        revisedDocumentId: DocumentId.optional().describe('The later version (their markup)'),
        comparisonId: z
          .string()
          .uuid()
          .optional()
          .describe('A comparison an earlier call started, to read its result'),
        substantiveOnly: z
          .boolean()
          .default(true)
          .describe('Only the substantive changes (default), or changes of form too'),
        limit: Limit(50, 200),
        offset: Offset,
      },
      async run(principal, input) {
        let id = input.comparisonId
        if (!id) {
          if (!input.baseDocumentId || !input.revisedDocumentId)
            throw new AppError(
              'validation_failed',
              'Give baseDocumentId and revisedDocumentId, or a comparisonId.',
            )
          const created = await createComparison({ db, jobs: services.jobs }, principal, {
            baseDocumentId: input.baseDocumentId,
            revisedDocumentId: input.revisedDocumentId,
          })
          id = created.id
        }
        const comparison = await awaitComparison(db, principal, id)
        return {
          comparisonId: comparison.id,
          state: comparison.state,
          error: comparison.error,
          counts: comparison.counts,
          ...citedChanges(comparison, input),
        }
      },
    }),
    assistantTool({
      name: 'check_playbook',
      description:
        "Checks a contract against one of the firm's playbooks (its standard positions per clause type): per position compliant, fallback N (an acceptable fallback, 1 = the best), deviation or missing, each with the passage it was decided from (document id, character span [start, end) and quoted text), the rule or sample language that decided it, the negotiator's guidance and a suggested redline (the preferred language, and the next fallback's). Give documentId and playbookId (list them with playbookId omitted); the playbook's current approved version is used unless `version` names another. The document needs a full analysis first (an error says so). Recorded in the audit log as done by this MCP client; the check is kept in Lexdesk.",
      scope: 'write',
      input: {
        playbookId: z
          .string()
          .uuid()
          .optional()
          .describe("A playbook's id; omit it to list the organisation's playbooks"),
        documentId: DocumentId.optional(),
        version: z.number().int().min(1).optional().describe('A version number (default: current)'),
        checkId: z
          .string()
          .uuid()
          .optional()
          .describe('A check an earlier call made, to read again'),
        deviationsOnly: z
          .boolean()
          .default(false)
          .describe('Only the positions not compliant (fallbacks, deviations, missing)'),
      },
      async run(principal, input) {
        if (!input.playbookId) {
          const { items } = await listPlaybooks(db, principal, { limit: 50, offset: 0 })
          return { playbooks: items }
        }
        let check
        if (input.checkId) check = await readCheck(db, principal, input.playbookId, input.checkId)
        else {
          if (!input.documentId)
            throw new AppError(
              'validation_failed',
              'Give documentId (or a checkId) with playbookId.',
            )
          check = await createCheck(db, principal, input.playbookId, {
            documentId: input.documentId,
            ...(input.version ? { version: input.version } : {}),
          })
        }
        return {
          checkId: check.id,
          playbookId: check.playbookId,
          version: check.version,
          documentId: check.documentId,
          counts: check.counts,
          results: check.results
            .filter((r) => !input.deviationsOnly || r.verdict !== 'compliant')
            .map((r) => ({
              position: r.title,
              clauseType: r.clauseType,
              severity: r.severity,
              verdict: r.verdict,
              fallbackRank: r.fallbackRank,
              citation: r.citation ? { documentId: check.documentId, ...r.citation } : null,
              decidedBy: r.explanation,
              guidance: r.guidance,
              suggestedRedline: r.redline,
            })),
        }
      },
    }),
  ]
}

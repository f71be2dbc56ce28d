/**
 * HTTP routes of search by meaning: hybrid passage search (library "by meaning" mode), the spec's
 * `semantic_search` procedure, text embedding (the Vector Store tester's embedding function) and
 * a document's indexing state (the 'document-passages' job itself: search/index-document.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { FeatureContext } from '../../services'
import { AppId, DocumentParams, OrgParams } from '../../http/params'
import { notFound } from '../../errors/app-error'
import { hybridSearch, searchByMeaning, type PassageHit } from '../../search/hybrid-search'
import { embedText, emptyText, parseEmbedding, passageState } from './service'

/** Top K of the spec: 1 to 50, default 8 (out-of-range values are clamped, as the screen does). */
const TopK = z.coerce
  .number()
  .int()
  .default(8)
  .transform((k) => Math.min(50, Math.max(1, k)))
  .describe('Results wanted, clamped to 1–50 (default 8)')

const Passage = z
  .object({
    id: z.string().uuid(),
    documentId: z.string().uuid(),
    documentTitle: z.string(),
    appId: z.string().uuid().nullable(),
    ordinal: z.number().int(),
    content: z.string(),
    start: z.number().int().describe('Character offset of the passage in the document content'),
    end: z.number().int().describe('End offset (exclusive)'),
    score: z.number(),
  })
  .meta({ id: 'Passage' })

const SemanticRow = z
  .object({
    id: z.string().uuid(),
    score: z.number().describe('Cosine similarity'),
    content: z.string(),
    metadata: z.object({
      documentId: z.string().uuid(),
      documentTitle: z.string(),
      appId: z.string().uuid().nullable(),
      start: z.number().int(),
      end: z.number().int(),
      ordinal: z.number().int(),
    }),
  })
  .meta({ id: 'SemanticSearchRow' })

const toPassage = (hit: PassageHit) => ({ ...hit, score: Number(hit.score) })

export const vectorRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const deps = { db: services.db, embedder: services.engines.embedder }

  app.post(
    '/orgs/:orgId/search',
    {
      schema: {
        operationId: 'searchPassages',
        tags: ['search'],
        description:
          "Hybrid search by meaning over the organisation's document passages: vector similarity and full-text rank fused by reciprocal rank fusion. Each passage carries its document and character span.",
        params: OrgParams,
        body: z.object({
          query: z.string().trim().min(1, 'Type what you are looking for').max(2000),
          k: TopK,
          appId: AppId.optional(),
          documentId: z.string().uuid({ message: 'documentId must be a UUID' }).optional(),
        }),
        response: { 200: z.object({ items: z.array(Passage) }) },
      },
      config: { minRole: 'member', scope: 'read' },
    },
    async (req) => {
      const hits = await hybridSearch(deps.db, deps.embedder, principalOf(req), {
        text: req.body.query,
        k: req.body.k,
        scope: { appId: req.body.appId, documentId: req.body.documentId },
      })
      return { items: hits.map(toPassage) }
    },
  )

  app.post(
    '/orgs/:orgId/rpc/semantic_search',
    {
      schema: {
        operationId: 'semanticSearch',
        tags: ['search'],
        description:
          "The spec's semantic_search procedure: the `_k` passages nearest to the embedding `_emb` (a JSON array as a string) in organisation `_org` (the path's, when given it must match) and app `_app`.",
        params: OrgParams,
        body: z.object({
          _org: z.string().max(100).optional(),
          _app: AppId.nullish(),
          _emb: z.string().max(200_000),
          _k: TopK,
        }),
        response: { 200: z.array(SemanticRow) },
      },
      config: { minRole: 'member', scope: 'read' },
    },
    async (req) => {
      const principal = principalOf(req)
      if (req.body._org !== undefined && req.body._org !== principal.orgId)
        throw notFound('Organization')
      const vector = await parseEmbedding(deps, req.body._emb)
      const hits = await searchByMeaning(deps.db, deps.embedder.id, principal, {
        vector,
        k: req.body._k,
        scope: { appId: req.body._app ?? undefined },
      })
      return hits.map((h) => ({
        id: h.id,
        score: Number(h.score),
        content: h.content,
        metadata: {
          documentId: h.documentId,
          documentTitle: h.documentTitle,
          appId: h.appId,
          start: h.start,
          end: h.end,
          ordinal: h.ordinal,
        },
      }))
    },
  )

  app.post(
    '/orgs/:orgId/embeddings',
    {
      schema: {
        operationId: 'embedText',
        tags: ['search'],
        description:
          "The spec's embedding function: the configured engine's embedding of `text` (what semantic_search compares).",
        params: OrgParams,
        body: z.object({
          text: z.string().max(20_000),
          org_id: z.string().max(100).optional(),
          app_id: z.string().max(100).nullish(),
        }),
        response: { 200: z.object({ embedding: z.array(z.number()), embedder: z.string() }) },
      },
      config: { minRole: 'member', scope: 'read' },
    },
    async (req) => {
      if (req.body.org_id !== undefined && req.body.org_id !== principalOf(req).orgId)
        throw notFound('Organization')
      if (req.body.text.trim() === '') throw emptyText()
      return { embedding: await embedText(deps, req.body.text), embedder: deps.embedder.id }
    },
  )

  app.get(
    '/orgs/:orgId/documents/:documentId/passages',
    {
      schema: {
        operationId: 'getDocumentPassages',
        tags: ['search'],
        description:
          "Whether a document's passages are indexed for search by meaning: the state of its latest chunking job and the passages stored.",
        params: DocumentParams,
        response: {
          200: z.object({
            status: z.enum(['queued', 'running', 'failed', 'indexed', 'none']),
            progress: z
              .number()
              .describe(
                "The latest chunking job's progress, 0..1: passages saved / total while it runs.",
              ),
            saved: z
              .number()
              .int()
              .nullable()
              .describe(
                'Passages the latest chunking job has saved so far (null before it has counted them).',
              ),
            total: z
              .number()
              .int()
              .nullable()
              .describe(
                "The document's passages in all, as the latest chunking job counted them (null before it has); search by meaning covers the whole document once `saved` reaches it.",
              ),
            passages: z.number().int(),
            embedder: z.string().nullable(),
            error: z.string().nullable(),
            byMeaning: z
              .boolean()
              .describe(
                'False when the database has no pgvector: passages are then found by their words only.',
              ),
          }),
        },
      },
      config: { minRole: 'member' },
    },
    (req) => passageState(deps.db, principalOf(req), req.params.documentId),
  )
}

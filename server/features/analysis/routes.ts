/** HTTP routes of document analysis: run an analysis, list a document's analyses. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { AnalysisKind, AnalysisResult } from '../../ai/analyzer/types'
import type { Analyzer } from '../../ai/analyzer/types'
import type { Db } from '../../db/client'
import { DocumentParams } from '../documents/schemas'
import { analyzeDocument, listAnalyses, toAnalysis } from './service'

const AnalysisSchema = z
  .object({
    id: z.string().uuid(),
    documentId: z.string().uuid(),
    kind: AnalysisKind,
    engine: z.string(),
    model: z.string(),
    result: AnalysisResult.meta({ id: 'AnalysisResult' }),
    createdAt: z.string(),
  })
  .meta({ id: 'Analysis' })

export const analysisRoutes: FastifyPluginAsyncZod<{
  deps: { db: Db; analyzer: Analyzer }
}> = async (app, { deps }) => {
  app.get(
    '/orgs/:orgId/documents/:documentId/analyses',
    {
      schema: {
        operationId: 'listAnalyses',
        tags: ['analysis'],
        params: DocumentParams,
        response: { 200: z.object({ items: z.array(AnalysisSchema) }) },
      },
      config: { minRole: 'member' },
    },
    async (req) => ({
      items: (await listAnalyses(deps.db, principalOf(req), req.params.documentId)).map(toAnalysis),
    }),
  )

  app.post(
    '/orgs/:orgId/documents/:documentId/analyses',
    {
      schema: {
        operationId: 'analyzeDocument',
        tags: ['analysis'],
        description:
          'Runs the configured analysis engine; every finding carries character offsets into the document content.',
        params: DocumentParams,
        body: z.object({ kind: AnalysisKind.default('full') }),
        response: { 201: AnalysisSchema },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const row = await analyzeDocument(
        deps,
        principalOf(req),
        req.params.documentId,
        req.body.kind,
      )
      return reply.status(201).send(toAnalysis(row))
    },
  )
}

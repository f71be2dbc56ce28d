/** HTTP routes of document analysis: queue an analysis job, list a document's analyses. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { AnalysisKind, AnalysisResult } from '../../ai/analyzer/types'
import { WeActFor } from '../../ai/analyzer/we-act-for'
import type { FeatureContext } from '../../services'
import { DocumentParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { jobSchemaOf } from '../../job-schema'
import { listAnalyses, startAnalysis } from './service'

const AnalysisSchema = z
  .object({
    id: z.string().uuid(),
    documentId: z.string().uuid(),
    kind: AnalysisKind,
    engine: z.string(),
    model: z.string(),
    result: AnalysisResult.meta({ id: 'AnalysisResult' }),
    weActFor: WeActFor.nullable().describe(
      "The document's choice of whom the firm acts for (setWeActFor); null when none",
    ),
    ourParty: z
      .string()
      .nullable()
      .describe(
        "The party of this analysis that choice names; every risk's `whose`, `orientation` and `severity` are oriented to it. Null: risks name the party that bears them",
      ),
    createdAt: z.string(),
  })
  .meta({ id: 'Analysis' })

export const analysisRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const deps = { db: services.db, jobs: services.jobs }
  app.get(
    '/orgs/:orgId/documents/:documentId/analyses',
    {
      schema: {
        operationId: 'listAnalyses',
        tags: ['analysis'],
        params: DocumentParams,
        querystring: PageQuery,
        response: { 200: pageOf(AnalysisSchema) },
      },
      config: { minRole: 'member' },
    },
    async (req) => {
      return listAnalyses(deps.db, principalOf(req), req.params.documentId, req.query)
    },
  )

  app.post(
    '/orgs/:orgId/documents/:documentId/analyses',
    {
      schema: {
        operationId: 'analyzeDocument',
        tags: ['analysis'],
        description:
          "Queues the configured analysis engine's run over the document as a background job, whatever its length (202 with the job; a short document's may already have ended when the answer arrives): follow it with getJob or the `follow` message of openRealtime; its result's `analysisId` names the stored analysis (listAnalyses), whose every finding carries character offsets into the document content. 404 for another organisation's document and 422 `no_text` for a document without text, before anything is queued; the engine's failures end the job with its `errorCode`.",
        params: DocumentParams,
        body: z.object({ kind: AnalysisKind.default('full') }),
        response: { 202: jobSchemaOf('analysis') },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const job = await startAnalysis(deps, principalOf(req), req.params.documentId, req.body.kind)
      return reply.status(202).send(job)
    },
  )
}

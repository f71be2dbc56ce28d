/** HTTP routes of document analysis: run an analysis, list a document's analyses. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { AnalysisKind, AnalysisResult } from '../../ai/analyzer/types'
import type { AppServices } from '../../services'
import { DocumentParams } from '../../http/params'
import { PageQuery, pageOf } from '../../http/paging'
import { JobSchema } from '../../jobs/job-service'
import {
  analysisJobHandler,
  listAnalyses,
  startAnalysis,
  SYNC_ANALYSIS_MAX_CHARS,
  toAnalysis,
} from './service'

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
  services: AppServices
}> = async (app, { services }) => {
  const deps = { db: services.db, analyzer: services.engines.analyzer }
  services.jobs.register(analysisJobHandler(deps))
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
      const page = await listAnalyses(deps.db, principalOf(req), req.params.documentId, req.query)
      return { items: page.rows.map(toAnalysis), total: page.total }
    },
  )

  app.post(
    '/orgs/:orgId/documents/:documentId/analyses',
    {
      schema: {
        operationId: 'analyzeDocument',
        tags: ['analysis'],
        description: `Runs the configured analysis engine; every finding carries character offsets into the document content. Documents of up to ${SYNC_ANALYSIS_MAX_CHARS.toLocaleString('en')} characters are analysed at once (201 with the analysis); longer ones are queued as a background job (202 with the job: follow it with streamJob, then listAnalyses).`,
        params: DocumentParams,
        body: z.object({
          kind: AnalysisKind.default('full'),
          ourParty: z
            .string()
            .trim()
            .min(1)
            .max(200)
            .optional()
            .describe(
              'The party the firm acts for (name, defined term or role); orients the risks',
            ),
        }),
        response: { 201: AnalysisSchema, 202: JobSchema },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const started = await startAnalysis(
        deps,
        principalOf(req),
        req.params.documentId,
        req.body.kind,
        req.body.ourParty,
      )
      if ('job' in started) {
        services.jobs.wake()
        return reply.status(202).send(started.job)
      }
      return reply.status(201).send(toAnalysis(started.analysis))
    },
  )
}

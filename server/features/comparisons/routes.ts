/**
 * HTTP routes of comparisons (issue 46, decision 0149): create (queues the 'comparison' job),
 * list, read, delete, and the redlines of a done comparison: a verified tracked-changes DOCX and
 * a standalone HTML page, both served as files (attachment, nosniff, the sandboxing CSP:
 * media/file-download.ts). Logic in service.ts; the work in comparison-job.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { FeatureContext } from '../../services'
import { OrgParams } from '../../http/params'
import { pageOf } from '../../lists/list-kit'
import { jobSchemaOf } from '../../job-schema'
import { streamResponse } from '../../http/stream-responses'
import { problemResponse } from '../../http/problem-responses'
import { fileHeaders } from '../../media/file-download'
import {
  ComparisonDetail,
  ComparisonListQuery,
  ComparisonParams,
  ComparisonSummary,
  CreateComparisonBody,
} from './schemas'
import {
  comparisonDocx,
  comparisonHtml,
  createComparison,
  deleteComparison,
  listComparisons,
  readComparison,
} from './service'

const tags = ['comparisons']
const member = { minRole: 'member' } as const
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const NOT_READY = problemResponse(
  'comparison_not_ready: not done yet (or failed); comparison_stale: a document changed since it was compared',
)

export const comparisonRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services },
) => {
  const deps = { db: services.db, jobs: services.jobs }
  const base = '/orgs/:orgId/comparisons'

  app.get(
    base,
    {
      schema: {
        operationId: 'listComparisons',
        tags,
        description:
          'The comparisons of the organisation (of its app, for an app-bound credential), newest first, without their results; `documentId` keeps those of one document.',
        params: OrgParams,
        querystring: ComparisonListQuery,
        response: { 200: pageOf(ComparisonSummary) },
      },
      config: member,
    },
    (req) => listComparisons(deps.db, principalOf(req), req.query),
  )

  app.post(
    base,
    {
      schema: {
        operationId: 'createComparison',
        tags,
        description:
          "Compares two documents of the organisation clause by clause (moved clauses as moves, words inside aligned clauses, changes of form told apart from substance, each change cited in both texts) as a background job: 202 with the comparison (`state` queued) and its `job`; follow the job (getJob, or the realtime `follow` message), then read the result with getComparison. 404 `document_not_found` when either document is not the organisation's (or, for an app-bound credential, not its app's); 422 `no_text` when either has no text yet (a scan waiting for OCR); 413 `comparison_too_large` past 1,000,000 characters a version. Audited.",
        params: OrgParams,
        body: CreateComparisonBody,
        response: { 202: ComparisonSummary.extend({ job: jobSchemaOf('comparison') }) },
      },
      config: member,
    },
    async (req, reply) =>
      reply.status(202).send(await createComparison(deps, principalOf(req), req.body)),
  )

  app.get(
    `${base}/:comparisonId`,
    {
      schema: {
        operationId: 'getComparison',
        tags,
        description:
          "A comparison with its latest job and, once done, its result: both versions' clauses, their alignment, and every change with its span in both texts (offsets into each document's `content`).",
        params: ComparisonParams,
        response: { 200: ComparisonDetail },
      },
      config: member,
    },
    (req) => readComparison(deps.db, principalOf(req), req.params.comparisonId),
  )

  app.delete(
    `${base}/:comparisonId`,
    {
      schema: {
        operationId: 'deleteComparison',
        tags,
        description:
          'Deletes a comparison and stops its job: its creator or an admin (403 otherwise). The documents stay. Audited.',
        params: ComparisonParams,
        response: { 204: z.null() },
      },
      config: member,
    },
    async (req, reply) => {
      await deleteComparison(deps.db, principalOf(req), req.params.comparisonId)
      return reply.status(204).send(null)
    },
  )

  app.get(
    `${base}/:comparisonId/redline.docx`,
    {
      schema: {
        operationId: 'getComparisonRedlineDocx',
        tags,
        description:
          "The comparison as a Word document with tracked changes (w:ins, w:del, w:moveFrom / w:moveTo, author \"Lexdesk\"), built from the texts and verified before it is sent: accepting every change gives the revised version's text, rejecting every change the base's. An attachment with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'; sandbox`. 409 until the comparison is done.",
        params: ComparisonParams,
        produces: [DOCX_TYPE],
        response: {
          200: streamResponse('The DOCX file (an attachment)', [DOCX_TYPE]),
          409: NOT_READY,
        },
      },
      config: member,
    },
    async (req, reply) => {
      const file = await comparisonDocx(
        { db: deps.db, pool: services.pool },
        principalOf(req),
        req.params.comparisonId,
      )
      return fileHeaders(reply, { contentType: DOCX_TYPE, fileName: file.fileName }).send(
        Buffer.from(file.bytes),
      )
    },
  )

  app.get(
    `${base}/:comparisonId/redline.html`,
    {
      schema: {
        operationId: 'getComparisonRedlineHtml',
        tags,
        description:
          'The comparison as a standalone HTML page (insertions in `<ins>`, deletions in `<del>`, a move\'s two ends as `class="moved-from"` / `"moved-to"` with `data-move`; every character of the texts escaped, no script, no style), as an attachment with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src \'none\'; sandbox`. 409 until the comparison is done.',
        params: ComparisonParams,
        produces: ['text/html'],
        response: {
          200: streamResponse('The HTML page (an attachment)', ['text/html']),
          409: NOT_READY,
        },
      },
      config: member,
    },
    async (req, reply) => {
      const page = await comparisonHtml(deps.db, principalOf(req), req.params.comparisonId)
      return fileHeaders(reply, {
        contentType: 'text/html; charset=utf-8',
        fileName: page.fileName,
      }).send(page.html)
    },
  )
}

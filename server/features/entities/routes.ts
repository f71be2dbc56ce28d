/**
 * HTTP routes of the entities feature: list (search, type, sort list, paging, exact count),
 * create, partial update, delete one, bulk delete, CSV export (streamed) and CSV import (a
 * background job). Logic lives in service.ts, export-csv.ts and import-csv.ts.
 */
import { Readable } from 'node:stream'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { notFound } from '../../errors/app-error'
import { principalOf } from '../../auth/principal'
import { assertWritableIn } from '../../http/app-reach'
import { OrgParams, AppId } from '../../http/params'
import type { FeatureContext } from '../../services'
import { jobSchemaOf } from '../../job-schema'
import {
  BulkDelete,
  EntityExportQuery,
  EntityListQuery,
  EntityPage,
  EntityParams,
  EntityPatch,
  EntitySchema,
  NewEntity,
} from './schemas'
import { createEntity, deleteEntities, listEntities, updateEntity } from './service'
import { exportEntitiesCsv } from './export-csv'
import { importFileSink, MAX_IMPORT_BYTES, startImport } from './import-csv'
import { readMultipart } from '../../uploads/read-multipart'
import { streamResponse } from '../../http/stream-responses'
import { fileHeaders } from '../../media/file-download'

const ImportQuery = z.object({
  appId: AppId.optional().describe('The app to file the rows under; absent = organisation-wide'),
})

export const entityRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const { db } = services

  app.get(
    '/orgs/:orgId/entities',
    {
      schema: {
        operationId: 'listEntities',
        tags: ['entities'],
        params: OrgParams,
        querystring: EntityListQuery,
        response: { 200: EntityPage },
      },
      config: { minRole: 'member' },
    },
    (req) => listEntities(db, principalOf(req), req.query),
  )

  app.post(
    '/orgs/:orgId/entities',
    {
      schema: {
        operationId: 'createEntity',
        tags: ['entities'],
        params: OrgParams,
        body: NewEntity,
        response: { 201: EntitySchema },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) =>
      reply.status(201).send(await createEntity(db, principalOf(req), req.body)),
  )

  app.patch(
    '/orgs/:orgId/entities/:entityId',
    {
      schema: {
        operationId: 'updateEntity',
        tags: ['entities'],
        params: EntityParams,
        body: EntityPatch,
        response: { 200: EntitySchema },
      },
      config: { minRole: 'member' },
    },
    (req) => updateEntity(db, principalOf(req), req.params.entityId, req.body),
  )

  app.delete(
    '/orgs/:orgId/entities/:entityId',
    {
      schema: {
        operationId: 'deleteEntity',
        tags: ['entities'],
        params: EntityParams,
        response: { 204: z.null() },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const deleted = await deleteEntities(db, principalOf(req), [req.params.entityId])
      if (deleted === 0) throw notFound('Entity')
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/orgs/:orgId/entities/bulk-delete',
    {
      schema: {
        operationId: 'deleteEntities',
        tags: ['entities'],
        description:
          "Deletes the organisation's entities among `ids`; ids of no entity (or another organisation's) are skipped. Answers how many were deleted.",
        params: OrgParams,
        body: BulkDelete,
        response: { 200: z.object({ deleted: z.number().int() }) },
      },
      config: { minRole: 'admin' },
    },
    async (req) => ({ deleted: await deleteEntities(db, principalOf(req), req.body.ids) }),
  )

  app.get(
    '/orgs/:orgId/entities/export',
    {
      schema: {
        operationId: 'exportEntities',
        tags: ['entities'],
        description:
          'The entities matching the filters as a CSV file (streamed): header id,org_id,app_id,type,name,data,created_at; every value quoted, inner quotes doubled, data as JSON; values starting with = + - @ tab, carriage return or a quote are prefixed with a quote (importEntities removes it).',
        params: OrgParams,
        querystring: EntityExportQuery,
        produces: ['text/csv'],
        response: { 200: streamResponse('The CSV file (an attachment)', ['text/csv']) },
      },
      config: { minRole: 'member' },
    },
    (req, reply) => {
      const stamp = new Date().toISOString().slice(0, 10)
      return fileHeaders(reply, {
        contentType: 'text/csv; charset=utf-8',
        fileName: `entities-${stamp}.csv`,
      }).send(Readable.from(exportEntitiesCsv(db, principalOf(req), req.query)))
    },
  )

  app.post(
    '/orgs/:orgId/entities/import',
    {
      schema: {
        operationId: 'importEntities',
        tags: ['entities'],
        description: `multipart/form-data with \`file\`: a CSV file (at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB) whose first line is the header (columns of exportEntities; name required). Answers 202 with the import job; the job imports every row or none, failing with the line of the first bad row. Names and types are cleaned as the API cleans them (one line, control and bidi characters removed); empty values become null (type null = 'item', data null = {}); data that is not a JSON object is kept as {"_raw": text}; id, org_id and app_id are not read: rows get new ids, this organisation and the app given here. A credential bound to one app imports into that app only: another app is 404 \`app_not_found\`, none (organisation-wide) 403 \`outside_app_scope\`.`,
        consumes: ['multipart/form-data'],
        params: OrgParams,
        querystring: ImportQuery,
        response: { 202: jobSchemaOf('entities-import') },
      },
      config: { minRole: 'admin' },
    },
    async (req, reply) => {
      const principal = principalOf(req)
      const appId = req.query.appId ?? null
      // Before the file is stored: an app-bound credential imports into its own app only.
      assertWritableIn(principal, appId)
      const { file } = await readMultipart(req, {
        maxBytes: MAX_IMPORT_BYTES,
        fields: z.object({}),
        sink: importFileSink(services.blobs, principal.orgId),
        missing: 'Choose a CSV file to import (field "file").',
      })
      const job = await startImport(services, principal, { ...file, appId })
      return reply.status(202).send(job)
    },
  )
}

/**
 * HTTP routes of archives (issue 27, decisions 0063 and 0072): start an export of
 * the whole organisation (a 'tenant-export' job, followed and cancelled through the jobs routes)
 * and download its archive, import an archive, clone the organisation. Owners only: the archive is everything the firm holds, so no API key or
 * token opens these routes (route-roles.ts keeps owner routes to sessions).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { OrgParams } from '../../http/params'
import { toSingleLineText } from '../../http/single-line-text'
import { sendBlob } from '../../blob/send-blob'
import { streamResponse } from '../../http/stream-responses'
import { jobSchemaOf } from '../../job-schema'
import type { FeatureContext } from '../../services'
import { exportArchiveOf, startExport } from './export-service'
import { readMultipart } from '../../uploads/read-multipart'
import { archiveSink, startTenantImport } from './import-service'
import { startClone } from './clone-service'

/**
 * The name of a new organisation (an import's or a clone's), cleaned as better-auth's hook cleans
 * one created by hand (auth.ts cleanOrganisation): control and bidirectional characters removed,
 * one line, trimmed (single-line-text.ts), so "Acme\u202Efdp.exe" cannot pose as another firm.
 */
const NewOrgName = z.string().max(200).transform(toSingleLineText)

const ImportFields = z.object({
  target_org_id: z.string().max(200).optional(),
  create_org_if_missing: z.enum(['true', 'false']).optional(),
  org_name: NewOrgName.optional(),
})

const ExportBody = z.object({
  includeEmbeddings: z
    .boolean()
    .default(false)
    .describe("Keep passages' embedding vectors (otherwise the importer re-indexes them)"),
})
const CloneBody = z.object({
  source_org_id: z
    .string()
    .max(200)
    .optional()
    .describe("The organisation to clone; when given, it must be the path's"),
  target_org_name: NewOrgName.pipe(
    z.string().min(1, { message: 'Name the new organization' }),
  ).describe('The name of the new organisation'),
  clone_buckets: z
    .boolean()
    .default(true)
    .describe('Copy storage buckets and their objects (otherwise both are left out)'),
})

const ExportParams = OrgParams.extend({
  jobId: z.string().uuid({ message: 'Job id must be a UUID' }),
})

export const archiveRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  app.post(
    '/orgs/:orgId/export',
    {
      schema: {
        operationId: 'exportOrganization',
        tags: ['archives'],
        description:
          "Starts a 'tenant-export' job writing the organisation's archive (manifest.json, one NDJSON file per table, every stored file under files/); answers 202 with the job. Follow it with getJob or followJob, cancel it with cancelJob, download the result with getExportArchive.",
        params: OrgParams,
        body: ExportBody,
        response: { 202: jobSchemaOf('tenant-export') },
      },
      config: { minRole: 'owner' },
    },
    async (req, reply) =>
      reply.status(202).send(await startExport(services, principalOf(req), req.body)),
  )

  app.get(
    '/orgs/:orgId/exports/:jobId/file',
    {
      schema: {
        operationId: 'getExportArchive',
        tags: ['archives'],
        description:
          'The archive of a finished export job, streamed as an attachment named `lexdesk-{org-slug}-{YYYY-MM-DD}.zip`. 404 `file_not_found` for any other job, one not finished, or an archive since removed.',
        params: ExportParams,
        response: {
          200: streamResponse('The ZIP archive', ['application/zip']),
          206: streamResponse('The requested byte range of the archive', ['application/zip']),
        },
      },
      config: { minRole: 'owner' },
    },
    async (req, reply) => {
      const archive = await exportArchiveOf(services.db, principalOf(req), req.params.jobId)
      return sendBlob(req, reply, services.blobs, archive)
    },
  )

  app.post(
    '/orgs/:orgId/import',
    {
      schema: {
        operationId: 'importOrganization',
        tags: ['archives'],
        description:
          "Uploads an organisation archive (multipart: `zip_file`, and either `create_org_if_missing` 'true' with `org_name`, or `target_org_id` naming an existing organisation the caller owns: 404 `organization_not_found` for one unknown or not the caller's, 403 below owner; spec section 7) and starts a 'tenant-import' job that checks it (a hostile archive ends the job with 413 `archive_too_large` or 422 `archive_invalid`, nothing written), stages it into a hidden organisation and publishes it in one transaction: as a new organisation with the caller as owner, or by adding its rows, with new ids, to the target (taken bucket names and app slugs get an `-imported` suffix; decision 0071). Nobody but the caller joins: the archive's members become unsent invitations (listInvitations, `sent` false), its rows name no user of this server and its audit rows' actor is `imported` (decision 0103); a line over 32 MiB ends the job with 413 `archive_line_too_long`. Answers 202 with the job, whose result names the organisation, the counts per table and the invitations made.",
        params: OrgParams,
        consumes: ['multipart/form-data'],
        response: { 202: jobSchemaOf('tenant-import') },
      },
      config: { minRole: 'owner' },
    },
    async (req, reply) => {
      const principal = principalOf(req)
      const { file, fields } = await readMultipart(req, {
        maxBytes: services.limits.importMaxBytes,
        fields: ImportFields,
        sink: archiveSink(services.blobs, principal.orgId),
        fileField: 'zip_file',
        missing: 'Select a ZIP file',
      })
      return reply.status(202).send(await startTenantImport(services, principal, file, fields))
    },
  )

  app.post(
    '/orgs/:orgId/clone',
    {
      schema: {
        operationId: 'cloneOrganization',
        tags: ['archives'],
        description:
          "Starts a 'tenant-clone' job copying the organisation (spec section 7: `source_org_id`, `target_org_name`, `clone_buckets`) into a new one named `target_org_name` with the caller as owner and the source's members with their roles: an export and an import through a temporary archive deleted when the job ends. Answers 202 with the job, whose result names the new organisation (id, slug) and the counts per table; cancel it with cancelJob (nothing is left behind).",
        params: OrgParams,
        body: CloneBody,
        response: { 202: jobSchemaOf('tenant-clone') },
      },
      config: { minRole: 'owner' },
    },
    async (req, reply) =>
      reply.status(202).send(await startClone(services, principalOf(req), req.body)),
  )
}

/**
 * HTTP routes of the audit log viewer (issue 22): the organisation's audit rows for owners and
 * admins, newest first, filtered, in keyset pages, and the same rows as a streamed CSV file.
 */
import { Readable } from 'node:stream'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { AUDIT_ACTOR_TYPES } from '../../db/actor-types'
import { fileHeaders } from '../../media/file-download'
import { keysetPageOf, keysetQuery } from '../../lists/list-kit'
import { OrgParams } from '../../http/params'
import { streamResponse } from '../../http/stream-responses'
import { AUDIT_CSV_COLUMNS, exportAuditCsv } from './export-csv'
import { listAudit } from './service'
import type { FeatureContext } from '../../services'

const AuditEntrySchema = z
  .object({
    id: z.string().uuid(),
    actorType: z.enum(AUDIT_ACTOR_TYPES),
    actorId: z.string().nullable(),
    actorName: z
      .string()
      .nullable()
      .describe(
        'The actor’s name or e-mail (an imported row’s: the archive’s e-mail, decision 0103); null for the system',
      ),
    credentialId: z
      .string()
      .nullable()
      .describe('The credential acted through; null for a session'),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    targetExists: z.boolean().describe('Whether the target can still be opened'),
    meta: z.record(z.string(), z.unknown()),
    createdAt: z.string().describe('ISO 8601, microseconds kept'),
  })
  .meta({ id: 'AuditEntry' })

const Instant = z.iso.datetime({ offset: true })

/** The filters of both routes; `from` inclusive, `to` exclusive. */
const AuditFilterQuery = z.object({
  actorId: z.string().max(100).optional().describe('Only rows of this user'),
  actorType: z.enum(AUDIT_ACTOR_TYPES).optional().describe('Only rows of this kind of actor'),
  action: z.string().max(100).optional().describe('Only rows of this action, e.g. entity.update'),
  from: Instant.optional().describe('Only rows at or after this instant (ISO 8601)'),
  to: Instant.optional().describe('Only rows before this instant (ISO 8601)'),
})

const AuditListQuery = keysetQuery({ defaultLimit: 50, maxLimit: 200 }).extend(
  AuditFilterQuery.shape,
)

export const auditRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db } },
) => {
  app.get(
    '/orgs/:orgId/audit',
    {
      schema: {
        operationId: 'listAudit',
        tags: ['audit'],
        description:
          'The organisation’s audit log, newest first, in keyset pages (pass nextCursor as cursor), with the actions it holds and the organisation’s members (for the filters).',
        params: OrgParams,
        querystring: AuditListQuery,
        response: {
          200: keysetPageOf(AuditEntrySchema).extend({
            actions: z.array(z.string()).describe('The actions the organisation’s log holds'),
            actors: z
              .array(z.object({ id: z.string(), name: z.string() }))
              .describe('The organisation’s members'),
          }),
        },
      },
      config: { minRole: 'admin', app: 'organisation' },
    },
    (req) => listAudit(db, principalOf(req), req.query),
  )

  app.get(
    '/orgs/:orgId/audit/export',
    {
      schema: {
        operationId: 'exportAudit',
        tags: ['audit'],
        description: `The audit rows matching the filters as a CSV file (streamed), newest first: header ${AUDIT_CSV_COLUMNS.join(',')}; every value quoted, inner quotes doubled, meta as JSON; values starting with = + - @ tab, carriage return or a quote are prefixed with a quote.`,
        params: OrgParams,
        querystring: AuditFilterQuery,
        produces: ['text/csv'],
        response: { 200: streamResponse('The CSV file (an attachment)', ['text/csv']) },
      },
      config: { minRole: 'admin', app: 'organisation' },
    },
    (req, reply) => {
      const stamp = new Date().toISOString().slice(0, 10)
      return fileHeaders(reply, {
        contentType: 'text/csv; charset=utf-8',
        fileName: `audit-${stamp}.csv`,
      }).send(Readable.from(exportAuditCsv(db, principalOf(req), req.query)))
    },
  )
}

/**
 * HTTP routes of legal holds (issue 45, decision 0147), for admins and owners: list the
 * organisation's holds, place one on an app, a document, a recording or a member's data, release
 * one. Holds belong to the whole organisation, so a credential bound to one app cannot use them.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { OrgParams } from '../../http/params'
import { problemResponse } from '../../http/problem-responses'
import { pageOf, PageQuery } from '../../lists/list-kit'
import { LEGAL_HOLD_REASON_MAX, LEGAL_HOLD_TARGET_KINDS } from '../../holds/legal-hold'
import { listLegalHolds, placeLegalHold, releaseLegalHold } from './service'
import type { FeatureContext } from '../../services'

const LegalHoldSchema = z
  .object({
    id: z.string().uuid(),
    targetKind: z.enum(LEGAL_HOLD_TARGET_KINDS),
    targetId: z
      .string()
      .describe("The app's, document's or recording's id; for a member, their user id"),
    reason: z
      .string()
      .describe('Why the firm keeps it (a matter, an order); never shown in a refusal'),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    releasedBy: z.string().nullable(),
    releasedAt: z.string().nullable().describe('When it was released; null while it stands'),
  })
  .meta({ id: 'LegalHold' })

const NewLegalHoldBody = z.object({
  targetKind: z.enum(LEGAL_HOLD_TARGET_KINDS),
  targetId: z.string().min(1).max(100),
  reason: z
    .string()
    .trim()
    .min(1, 'Say why the data is held')
    .max(LEGAL_HOLD_REASON_MAX, `A reason has at most ${LEGAL_HOLD_REASON_MAX} characters`),
})

const LegalHoldListQuery = PageQuery.extend({
  inForce: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('Only the holds that stand (not released)'),
})

const LegalHoldParams = OrgParams.extend({
  holdId: z.string().uuid({ message: 'Legal hold id must be a UUID' }),
})

const CONFIG = { minRole: 'admin', app: 'organisation' } as const

export const legalHoldRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db } },
) => {
  app.get(
    '/orgs/:orgId/legal-holds',
    {
      schema: {
        operationId: 'listLegalHolds',
        tags: ['holds'],
        description:
          'The organisation’s legal holds, newest first, a page at a time, released ones included unless `inForce=true`.',
        params: OrgParams,
        querystring: LegalHoldListQuery,
        response: { 200: pageOf(LegalHoldSchema) },
      },
      config: CONFIG,
    },
    (req) => listLegalHolds(db, principalOf(req), req.query),
  )

  app.post(
    '/orgs/:orgId/legal-holds',
    {
      schema: {
        operationId: 'placeLegalHold',
        tags: ['holds'],
        description:
          'Places a legal hold on an app (and everything in it), a document, a recording (and its transcript) or a member (what they created, and their removal). While it stands, every deletion it reaches is refused with 409 `legal_hold`. Audited.',
        params: OrgParams,
        body: NewLegalHoldBody,
        response: {
          201: LegalHoldSchema,
          404: problemResponse('The organisation has no such app, document, recording or member'),
        },
      },
      config: CONFIG,
    },
    async (req, reply) =>
      reply.status(201).send(await placeLegalHold(db, principalOf(req), req.body)),
  )

  app.delete(
    '/orgs/:orgId/legal-holds/:holdId',
    {
      schema: {
        operationId: 'releaseLegalHold',
        tags: ['holds'],
        description:
          'Releases a legal hold: the hold stays on record with who released it and when, and what it held may be deleted again unless another hold reaches it. Releasing it again changes nothing. Audited.',
        params: LegalHoldParams,
        response: {
          200: LegalHoldSchema,
          404: problemResponse('No such legal hold in the organisation'),
        },
      },
      config: CONFIG,
    },
    (req) => releaseLegalHold(db, principalOf(req), req.params.holdId),
  )
}

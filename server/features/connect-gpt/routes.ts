/**
 * HTTP routes of Connect GPT (issue 23): the owner's switch for external assistants, the two
 * procedures only assistants call (`list_recent_conversations`, `log_gpt_action`, refused with a
 * 403 `external_assistants_disabled` until the switch is on) and the download of the assistants'
 * OpenAPI file. Logic lives in service.ts and assistant-openapi.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import { externalAssistantsGate } from '../../auth/external-assistants'
import { notFound } from '../../errors/app-error'
import { fileHeaders } from '../../media/file-download'
import { OrgParams } from '../../http/params'
import { assistantOpenApi, type OpenApiDocument } from './assistant-openapi'
import {
  listRecentConversations,
  logGptAction,
  readExternalAssistants,
  setExternalAssistants,
} from './service'
import type { FeatureContext } from '../../services'

const ExternalAssistants = z
  .object({
    enabled: z
      .boolean()
      .describe('Whether external assistants (custom GPTs, MCP clients) may call'),
    updatedAt: z.string().nullable().describe('When the switch last changed; null if never'),
    updatedBy: z.string().nullable().describe('Who changed it last (user id)'),
    canChange: z.boolean().describe('Whether the caller may turn it on or off (owners only)'),
  })
  .meta({ id: 'ExternalAssistants' })

const RecentConversation = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable(),
    startedAt: z.string(),
    firstQuestion: z.string().nullable().describe('The first question, cut to 200 characters'),
    messageCount: z.number().int(),
  })
  .meta({ id: 'RecentConversation' })

/** A short identifier: lower-case letters, digits, `_`, `.` and `-`. */
const Identifier = (what: string) =>
  z
    .string()
    .regex(
      /^[a-z][a-z0-9_.-]{0,63}$/,
      `${what} must be 1–64 lower-case letters, digits, _, . or -, starting with a letter`,
    )

export const connectGptRoutes: FastifyPluginAsyncZod<FeatureContext> = async (
  app,
  { services: { db }, config: { publicUrl } },
) => {
  const gate = externalAssistantsGate(db)

  app.get(
    '/orgs/:orgId/external-assistants',
    {
      schema: {
        operationId: 'getExternalAssistants',
        tags: ['connect-gpt'],
        description: 'Whether external assistants (custom GPTs, MCP clients) are turned on.',
        params: OrgParams,
        response: { 200: ExternalAssistants },
      },
      config: { minRole: 'member' },
    },
    (req) => readExternalAssistants(db, principalOf(req)),
  )

  app.put(
    '/orgs/:orgId/external-assistants',
    {
      schema: {
        operationId: 'setExternalAssistants',
        tags: ['connect-gpt'],
        description:
          "The owner's switch: turns external assistants on (the firm's documents they read are then sent to the assistant's provider) or off. Audited.",
        params: OrgParams,
        body: z.object({ enabled: z.boolean() }),
        response: { 200: ExternalAssistants },
      },
      config: { minRole: 'owner' },
    },
    (req) => setExternalAssistants(db, principalOf(req), req.body.enabled),
  )

  app.post(
    '/orgs/:orgId/rpc/list_recent_conversations',
    {
      schema: {
        operationId: 'listRecentConversations',
        tags: ['connect-gpt'],
        description:
          "The spec's list_recent_conversations(org_id, lim): the latest `lim` conversations, newest first. `org_id`, when given, must be the path's organisation. Needs external assistants on.",
        params: OrgParams,
        body: z.object({
          org_id: z.string().max(100).optional(),
          lim: z.coerce
            .number()
            .int()
            .default(10)
            .transform((n) => Math.min(50, Math.max(1, n)))
            .describe('How many, clamped to 1–50 (default 10)'),
        }),
        response: { 200: z.array(RecentConversation) },
      },
      config: { minRole: 'member', scope: 'read' },
      onRequest: gate,
    },
    (req) => {
      const principal = principalOf(req)
      if (req.body.org_id !== undefined && req.body.org_id !== principal.orgId)
        throw notFound('Organization')
      return listRecentConversations(db, principal, req.body.lim)
    },
  )

  app.post(
    '/orgs/:orgId/rpc/log_gpt_action',
    {
      schema: {
        operationId: 'logGptAction',
        tags: ['connect-gpt'],
        description:
          "The spec's log_gpt_action: one audit entry with actor type gpt, action gpt.<action>, for the caller's credential. No free text is kept. Needs external assistants on.",
        params: OrgParams,
        body: z.object({
          action: Identifier('action'),
          target_type: Identifier('target_type').optional(),
          target_id: z.string().min(1).max(100).optional(),
        }),
        response: {
          201: z.object({ action: z.string(), actorType: z.literal('gpt') }),
        },
      },
      config: { minRole: 'member' },
      onRequest: gate,
    },
    async (req, reply) => {
      const { action, target_type: targetType, target_id: targetId } = req.body
      const logged = await logGptAction(db, principalOf(req), { action, targetType, targetId })
      return reply.status(201).send({ action: logged.action, actorType: 'gpt' as const })
    },
  )

  app.get(
    '/orgs/:orgId/connect-gpt/openapi.json',
    {
      schema: {
        operationId: 'getAssistantOpenApi',
        tags: ['connect-gpt'],
        description:
          'The OpenAPI 3.1 file of the operations an external assistant may call (a custom GPT imports it as its Actions), for this organisation, as a download.',
        params: OrgParams,
        response: { 200: z.record(z.string(), z.unknown()) },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const { orgId } = principalOf(req)
      const document = assistantOpenApi(app.swagger() as unknown as OpenApiDocument, {
        orgId,
        publicUrl,
      })
      fileHeaders(reply, {
        contentType: 'application/json; charset=utf-8',
        fileName: 'lexdesk-assistant-openapi.json',
      })
      return document
    },
  )
}

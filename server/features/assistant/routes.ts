/**
 * HTTP routes of the assistant: the spec's ai-chat call as a server-sent event stream
 * (`data: {"choices":[{"delta":{"content":"…"}}]}` chunks, then `data: [DONE]`), and the
 * organisation's conversations with their messages.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { principalOf } from '../../auth/principal'
import type { FeatureContext } from '../../services'
import { AppId, OrgParams } from '../../http/params'
import { PageQuery, pageOf } from '../../lists/list-kit'
import { notFound } from '../../errors/app-error'
import type { ErrorCode } from '../../errors/error-codes'
import { citationsOf } from './citations'
import { withoutDocumentLead } from '../../ai/chat/yes-no-question'
import {
  listConversations,
  listMessages,
  renameConversation,
  checkDocumentScope,
  findNamedDocuments,
  openTurn,
  passagesForQuestion,
  saveAnswer,
  streamAnswer,
  whichDocument,
} from './service'
import { streamResponse } from '../../http/stream-responses'
import { toSingleLineText } from '../../http/single-line-text'
import { problemResponse } from '../../http/problem-responses'

const CitationSchema = z
  .object({
    n: z.number().int(),
    documentId: z.string().uuid(),
    documentTitle: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    quote: z.string(),
  })
  .meta({ id: 'Citation' })

const ConversationParams = OrgParams.extend({
  conversationId: z.string().uuid({ message: 'Conversation id must be a UUID' }),
})

const ChatBody = z
  .object({
    messages: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant']),
          content: z.string().trim().min(1).max(8000),
        }),
      )
      .min(1)
      .max(50),
    org_id: z.string().max(100).optional(),
    app_id: AppId.nullish(),
    conversation_id: z.string().uuid({ message: 'conversation_id must be a UUID' }).optional(),
    document_ids: z
      .array(z.string().uuid({ message: 'document_ids must hold document UUIDs' }))
      .min(1)
      .max(50)
      .optional()
      .describe(
        "Limits the answer to these documents of the organisation (the document page's 'Ask about this document', the chat's scope picker); an id that is not the organisation's is 404.",
      ),
  })
  .refine((b) => b.messages.at(-1)?.role === 'user', {
    message: 'The last message must be the question (role user)',
    path: ['messages'],
  })

/** Longest conversation title, as a document's (server/features/documents/schemas.ts). */
const MAX_CONVERSATION_TITLE = 300

const ConversationSchema = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid().nullable(),
    title: z.string().nullable().describe('The name it was given (renameConversation), or null'),
    startedAt: z.string(),
  })
  .meta({ id: 'Conversation' })

/** The body of a rename: one line, control and bidirectional characters removed, like titles. */
const ConversationRename = z.object({
  title: z
    .string()
    .transform(toSingleLineText)
    .pipe(
      z
        .string()
        .min(1, 'Give the conversation a name')
        .max(
          MAX_CONVERSATION_TITLE,
          `A conversation's name holds at most ${MAX_CONVERSATION_TITLE} characters`,
        ),
    ),
})

const CHAT_FAILED =
  "The assistant's model failed while answering. Try again, or ask an administrator to check the server log."

export const assistantRoutes: FastifyPluginAsyncZod<FeatureContext> = async (app, { services }) => {
  const deps = {
    db: services.db,
    embedder: services.engines.embedder,
    chat: services.engines.chat,
  }

  app.post(
    '/orgs/:orgId/chat',
    {
      schema: {
        operationId: 'chat',
        tags: ['assistant'],
        description:
          'The spec\'s ai-chat call. Retrieves passages from the organisation\'s documents and streams the answer as server-sent events: first `data: {"conversation_id":…}`, then chunks `data: {"choices":[{"delta":{"content":…}}]}`, then `data: {"citations":[…]}` (each [n] of the answer that matches a retrieved passage: document id and span), then `data: [DONE]`. An engine failure mid-stream sends `data: {"error":…,"code":"chat_failed"}` before [DONE]. The question and the answer are stored in the conversation (`conversation_id`, or a new one). With `document_ids` the passages come only from those documents (404 when one is not the organisation\'s); without it, a question naming its document in its lead ("Under the Alpha NDA, …") is answered from the one document whose title holds that name, and when several titles do, the answer asks which one and cites nothing.',
        params: OrgParams,
        body: ChatBody,
        produces: ['text/event-stream'],
        response: { 200: streamResponse('The event stream', ['text/event-stream']) },
      },
      config: { minRole: 'member' },
    },
    async (req, reply) => {
      const principal = principalOf(req)
      if (req.body.org_id !== undefined && req.body.org_id !== principal.orgId)
        throw notFound('Organization')
      const turns = req.body.messages
      const question = turns.at(-1)?.content ?? ''
      let scope = req.body.document_ids
      if (scope) await checkDocumentScope(deps.db, principal, scope)
      // A question naming its document ("Under the Alpha NDA, …") is answered from that document
      // only; when several titles match, the assistant asks which one instead of mixing them.
      const named = scope ? null : await findNamedDocuments(deps.db, principal, question)
      if (named?.length === 1) scope = [named[0]!.id]
      const ambiguous = named !== null && named.length > 1
      const conversation = await openTurn(deps.db, principal, {
        conversationId: req.body.conversation_id,
        appId: req.body.app_id,
        question,
      })
      // Once the named document is the scope, its name is not searched for.
      const searched = named?.length === 1 ? withoutDocumentLead(question) : question
      const passages = ambiguous
        ? []
        : await passagesForQuestion(deps, principal, searched, conversation.appId, scope)
      const stream = services.streams.open(req, reply)
      stream.send({ conversation_id: conversation.conversationId })
      let answer = ''
      try {
        const deltas = ambiguous
          ? [whichDocument(named.map((d) => d.title))]
          : streamAnswer(deps, turns, passages, stream.signal)
        for await (const delta of deltas) {
          answer += delta
          stream.send({ choices: [{ index: 0, delta: { content: delta } }] })
        }
        const citations = citationsOf(answer, passages)
        await saveAnswer(deps.db, principal, conversation, answer, citations)
        stream.send({ citations })
      } catch (error) {
        // The provider's message may name internal hosts: it goes to the log only.
        req.log.error({ err: error }, 'chat engine failed')
        stream.send({ error: CHAT_FAILED, code: 'chat_failed' satisfies ErrorCode })
      }
      stream.end('[DONE]')
    },
  )

  app.get(
    '/orgs/:orgId/conversations',
    {
      schema: {
        operationId: 'listConversations',
        tags: ['assistant'],
        description: 'Conversations newest first (started_at descending), in pages.',
        params: OrgParams,
        querystring: PageQuery.extend({ appId: AppId.optional() }),
        response: {
          200: pageOf(ConversationSchema),
        },
      },
      config: { minRole: 'member' },
    },
    (req) => listConversations(deps.db, principalOf(req), req.query),
  )

  app.patch(
    '/orgs/:orgId/conversations/:conversationId',
    {
      schema: {
        operationId: 'renameConversation',
        tags: ['assistant'],
        description:
          "Names the conversation (one line, 1 to 300 characters; control and bidirectional characters removed); audited. A member may rename only conversations they started (403 `forbidden` otherwise); admins and owners may rename any. Nothing else of it changes: it stays the firm's record.",
        params: ConversationParams,
        body: ConversationRename,
        response: {
          200: ConversationSchema,
          403: problemResponse('A member renaming a conversation someone else started'),
          404: problemResponse('No such conversation in this organisation'),
        },
      },
      config: { minRole: 'member', scope: 'write' },
    },
    (req) =>
      renameConversation(deps.db, principalOf(req), req.params.conversationId, req.body.title),
  )

  app.get(
    '/orgs/:orgId/conversations/:conversationId/messages',
    {
      schema: {
        operationId: 'listMessages',
        tags: ['assistant'],
        description: "A conversation's messages oldest first, answers with their citations.",
        params: ConversationParams,
        querystring: PageQuery,
        response: {
          200: pageOf(
            z
              .object({
                id: z.string().uuid(),
                role: z.enum(['user', 'assistant']),
                content: z.string(),
                citations: z.array(CitationSchema),
                createdAt: z.string(),
              })
              .meta({ id: 'Message' }),
          ),
        },
      },
      config: { minRole: 'member' },
    },
    (req) => listMessages(deps.db, principalOf(req), req.params.conversationId, req.query),
  )
}

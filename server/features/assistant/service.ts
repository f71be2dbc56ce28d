/**
 * The assistant (issue 8, decision 0018): a question is answered from passages retrieved from the
 * organisation's documents by the hybrid search, through the configured chat engine, with
 * numbered citations; conversations and their messages are stored under RLS.
 */
import { asc, desc, eq, ilike, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { conversations, documents, messages } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readListPage, readPage } from '../../lists/list-kit'
import { notFound } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { isForeignKeyViolation } from '../../db/constraint-violation'
import { assertCreatorOrAdmin } from '../../db/assert-creator-or-admin'
import type { Embedder } from '../../ai/embedder/types'
import type { ChatEngine, ChatTurn } from '../../ai/chat/types'
import { hybridSearch } from '../../search/hybrid-search'
import { namedDocument } from '../../ai/chat/yes-no-question'
import type { Citation, CitedPassage } from './citations'

export type AssistantDeps = { db: Db; embedder: Embedder; chat: ChatEngine }

/** Passages retrieved per question. */
export const PASSAGES_PER_ANSWER = 5

/**
 * Opens the turn: finds conversation `conversationId` (404 when not the org's) or starts one in
 * `appId` (404 for an app that is not the org's), and stores the user's question (audited as
 * `assistant.question` with its length, event `assistant.asked`).
 */
export async function openTurn(
  db: Db,
  principal: Principal,
  input: { conversationId?: string; appId?: string | null; question: string },
): Promise<{ conversationId: string; appId: string | null }> {
  try {
    return await withTenant(db, principal, async (tx) => {
      let conversation: { id: string; appId: string | null } | undefined
      if (input.conversationId) {
        ;[conversation] = await tx
          .select({ id: conversations.id, appId: conversations.appId })
          .from(conversations)
          .where(eq(conversations.id, input.conversationId))
        if (!conversation) throw notFound('Conversation')
      } else {
        ;[conversation] = await tx
          .insert(conversations)
          .values({
            orgId: principal.orgId,
            appId: input.appId ?? null,
            createdBy: principal.userId,
          })
          .returning({ id: conversations.id, appId: conversations.appId })
        if (!conversation) throw new Error('insert returned no row')
        await recordAudit(tx, principal, 'conversation.create', {
          type: 'conversation',
          id: conversation.id,
        })
      }
      await tx.insert(messages).values({
        orgId: principal.orgId,
        appId: conversation.appId,
        conversationId: conversation.id,
        role: 'user',
        content: input.question,
      })
      // The question's length, never its text: the audit log and events are read by every
      // admin, a question may quote privileged facts (decision 0046).
      await recordAudit(
        tx,
        principal,
        'assistant.question',
        { type: 'conversation', id: conversation.id },
        { length: input.question.length },
      )
      await recordEvent(
        tx,
        principal,
        'assistant.asked',
        { conversationId: conversation.id },
        conversation.appId,
      )
      return { conversationId: conversation.id, appId: conversation.appId }
    })
  } catch (error) {
    if (isForeignKeyViolation(error, 'conversations_app_fk')) throw notFound('App')
    throw error
  }
}

/**
 * Checks that every id of a chat's document scope names a document of the principal's
 * organisation (read under RLS, so another org's document is simply not found): throws 404
 * `document_not_found` otherwise, before anything of the turn is stored.
 */
export async function checkDocumentScope(
  db: Db,
  principal: Principal,
  documentIds: readonly string[],
): Promise<void> {
  const wanted = [...new Set(documentIds)]
  const found = await withTenant(db, principal, (tx) =>
    tx.select({ id: documents.id }).from(documents).where(inArray(documents.id, wanted)),
  )
  if (found.length !== wanted.length) throw notFound('Document')
}

/** Documents a named-document lookup lists at most (beyond one, the assistant asks which). */
const NAMED_MATCHES = 5

/** Escapes LIKE wildcards so a name written in a question matches literally. */
function likePattern(name: string): string {
  return `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * The organisation's documents (read under RLS) whose title holds the name a question gives in
 * its lead ("Under the Alpha NDA, may …?" → titles holding "Alpha NDA", else "Alpha"), at most
 * NAMED_MATCHES, by title; null when the question names no document, an empty list when it names
 * one that no title holds. The chat route scopes the answer to a single match and asks which one
 * when there are several, so a quote never comes from a document the question did not name.
 */
export async function findNamedDocuments(
  db: Db,
  principal: Principal,
  question: string,
): Promise<Array<{ id: string; title: string }> | null> {
  const names = namedDocument(question)
  if (names.length === 0) return null
  return withTenant(db, principal, async (tx) => {
    let found: Array<{ id: string; title: string }> = []
    for (const name of names) {
      found = await tx
        .select({ id: documents.id, title: documents.title })
        .from(documents)
        .where(ilike(documents.title, likePattern(name)))
        .orderBy(asc(documents.title), asc(documents.id))
        .limit(NAMED_MATCHES)
      if (found.length > 0) break
    }
    // A title that is the name itself ("Osprey NDA", also as "Osprey NDA.pdf") is the one meant,
    // beside "Osprey NDA amendment".
    const exact = found.filter((d) =>
      names.some((n) => d.title.replace(/\.[a-z0-9]{2,5}$/i, '').toLowerCase() === n.toLowerCase()),
    )
    return exact.length === 1 ? exact : found
  })
}

/**
 * The assistant's question back when a question names a document that several titles hold:
 * which one (by title), to be asked again from its page or with the scope picker.
 */
export function whichDocument(titles: readonly string[]): string {
  return `Your question names a document that several of your documents match: ${titles
    .map((t) => `“${t}”`)
    .join(
      ', ',
    )}. Which one do you mean? Ask again with its full title, or from the document's page ("Ask about this document"), so the answer quotes only that document.`
}

/**
 * The passages for `question`, numbered from 1 (their text is data for the engine); only
 * from `documentIds` when given (the search's own WHERE clause, not a filter afterwards).
 */
export async function passagesForQuestion(
  deps: AssistantDeps,
  principal: Principal,
  question: string,
  appId: string | null,
  documentIds?: readonly string[],
): Promise<CitedPassage[]> {
  const hits = await hybridSearch(deps.db, deps.embedder, principal, {
    text: question,
    k: PASSAGES_PER_ANSWER,
    scope: { appId: appId ?? undefined, documentIds },
  })
  return hits.map((h, i) => ({
    n: i + 1,
    documentId: h.documentId,
    documentTitle: h.documentTitle,
    start: h.start,
    end: h.end,
    content: h.content,
  }))
}

/** Streams the engine's answer to `turns` from `passages` (text deltas). */
export function streamAnswer(
  deps: AssistantDeps,
  turns: readonly ChatTurn[],
  passages: readonly CitedPassage[],
  signal?: AbortSignal,
): AsyncIterable<string> {
  return deps.chat.answer(
    turns,
    passages.map((p) => ({
      n: p.n,
      title: p.documentTitle,
      content: p.content,
      documentId: p.documentId,
    })),
    signal,
  )
}

/** Stores the assistant's answer with its citations (audited). */
export async function saveAnswer(
  db: Db,
  principal: Principal,
  conversation: { conversationId: string; appId: string | null },
  answer: string,
  citations: readonly Citation[],
): Promise<void> {
  await withTenant(db, principal, async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({
        orgId: principal.orgId,
        appId: conversation.appId,
        conversationId: conversation.conversationId,
        role: 'assistant',
        content: answer,
        citations,
      })
      .returning({ id: messages.id })
    await recordAudit(tx, principal, 'message.create', { type: 'message', id: row?.id ?? null })
  })
}

/** The organisation's conversations (or one app's), newest first. */
export async function listConversations(
  db: Db,
  principal: Principal,
  query: { appId?: string; limit: number; offset: number },
) {
  const where = query.appId ? eq(conversations.appId, query.appId) : undefined
  const { rows, total } = await readPage(db, principal, conversations, {
    where,
    orderBy: [desc(conversations.startedAt), desc(conversations.id)],
    limit: query.limit,
    offset: query.offset,
  })
  return {
    items: rows.map((r) => ({
      id: r.id,
      appId: r.appId,
      title: r.title,
      startedAt: r.startedAt.toISOString(),
    })),
    total,
  }
}

/**
 * Names conversation `id` `title` (already cleaned to one line), with an audit entry
 * ('conversation.rename', old and new title) as a document's rename has. Members rename only
 * the conversations they started, admins and owners any (403 `forbidden`); 404 when it is not
 * the org's. Only the title changes: the conversation stays the firm's record (decision 0018).
 * Returns the conversation as listConversations shows it.
 */
export async function renameConversation(db: Db, principal: Principal, id: string, title: string) {
  const row = await withTenant(db, principal, async (tx) => {
    const [found] = await tx
      .select({ title: conversations.title, createdBy: conversations.createdBy })
      .from(conversations)
      .where(eq(conversations.id, id))
      .for('update')
    if (!found) return undefined
    assertCreatorOrAdmin(principal, found.createdBy, {
      code: 'forbidden',
      detail: 'Only the person who started this conversation, or an admin, can rename it.',
    })
    const [updated] = await tx
      .update(conversations)
      .set({ title })
      .where(eq(conversations.id, id))
      .returning()
    if (!updated) return undefined
    await recordAudit(
      tx,
      principal,
      'conversation.rename',
      { type: 'conversation', id },
      { from: found.title, to: title },
    )
    return updated
  })
  if (!row) throw notFound('Conversation')
  return {
    id: row.id,
    appId: row.appId,
    title: row.title,
    startedAt: row.startedAt.toISOString(),
  }
}

/** A conversation's messages, oldest first; 404 when the conversation is not the org's. */
export async function listMessages(
  db: Db,
  principal: Principal,
  conversationId: string,
  page: { limit: number; offset: number },
) {
  const where = eq(messages.conversationId, conversationId)
  const {
    rows,
    total,
    also: [found],
  } = await readListPage(db, principal, page, (tx) => ({
    rows: tx
      .select()
      .from(messages)
      .where(where)
      .orderBy(asc(messages.createdAt), asc(messages.id)),
    total: tx.$count(messages, where),
    also: [
      tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(eq(conversations.id, conversationId)),
    ],
  }))
  if (found.length === 0) throw notFound('Conversation')
  return {
    items: rows.map((r) => ({
      id: r.id,
      role: r.role as 'user' | 'assistant',
      content: r.content,
      citations: r.citations as Citation[],
      createdAt: r.createdAt.toISOString(),
    })),
    total,
  }
}

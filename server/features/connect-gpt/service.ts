/**
 * Connect GPT (issue 23): the owner's switch for external assistants, and the two operations only
 * assistants call: the spec's `list_recent_conversations(org_id, lim)` and `log_gpt_action`.
 * Everything runs under the caller's principal (RLS through withTenant / withTenantReads).
 */
import { desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { conversations, orgSettings } from '../../db/schema'
import { withTenant, withTenantReads, type Principal } from '../../db/tenant'
import { recordAudit } from '../../audit/record-audit'

/**
 * The switch as the Connect GPT screen shows it; `updatedAt` null while never changed;
 * `canChange` whether the caller may flip it (owners only).
 */
export interface ExternalAssistantsSetting {
  enabled: boolean
  updatedAt: string | null
  updatedBy: string | null
  canChange: boolean
}

/** The organisation's switch (no row: off, never changed). */
export async function readExternalAssistants(
  db: Db,
  principal: Principal,
): Promise<ExternalAssistantsSetting> {
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx.select().from(orgSettings).where(eq(orgSettings.orgId, principal.orgId)),
  ])
  const row = rows[0]
  return {
    enabled: row?.externalAssistantsEnabled ?? false,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row?.updatedBy ?? null,
    canChange: principal.role === 'owner',
  }
}

/**
 * Turns external assistants on or off for the organisation and records it in the audit log
 * (`organization.external_assistants`, meta `{ enabled }`) in the same transaction. The route
 * admits owners only; the service trusts it.
 */
export async function setExternalAssistants(
  db: Db,
  principal: Principal,
  enabled: boolean,
): Promise<ExternalAssistantsSetting> {
  const row = await withTenant(db, principal, async (tx) => {
    const now = new Date()
    const [saved] = await tx
      .insert(orgSettings)
      .values({
        orgId: principal.orgId,
        externalAssistantsEnabled: enabled,
        updatedAt: now,
        updatedBy: principal.userId,
      })
      .onConflictDoUpdate({
        target: orgSettings.orgId,
        set: { externalAssistantsEnabled: enabled, updatedAt: now, updatedBy: principal.userId },
      })
      .returning()
    await recordAudit(
      tx,
      principal,
      'organization.external_assistants',
      { type: 'organization', id: principal.orgId },
      { enabled },
    )
    return saved
  })
  return {
    enabled: row?.externalAssistantsEnabled ?? enabled,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row?.updatedBy ?? null,
    canChange: principal.role === 'owner',
  }
}

/** How much of a conversation's first question the list shows, in characters. */
export const FIRST_QUESTION_CHARS = 200

/**
 * The spec's `list_recent_conversations(org_id, lim)`: the organisation's `lim` latest
 * conversations, newest first, each with its first question (cut to FIRST_QUESTION_CHARS) and
 * its number of messages, so an assistant can tell them apart before reading one
 * (GET …/conversations/{id}/messages).
 */
export async function listRecentConversations(db: Db, principal: Principal, lim: number) {
  // Qualified by hand: inside the subqueries an unqualified `id` would be the message's.
  const firstQuestion = sql<string | null>`(
    select left(m.content, ${sql.raw(String(FIRST_QUESTION_CHARS))}) from messages m
    where m.conversation_id = conversations.id and m.role = 'user'
    order by m.created_at, m.id limit 1)`
  const messageCount = sql<number>`(
    select count(*) from messages m where m.conversation_id = conversations.id
  )`.mapWith(Number)
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx
      .select({
        id: conversations.id,
        appId: conversations.appId,
        startedAt: conversations.startedAt,
        firstQuestion,
        messageCount,
      })
      .from(conversations)
      .orderBy(desc(conversations.startedAt), desc(conversations.id))
      .limit(lim),
  ])
  return rows.map((r) => ({ ...r, startedAt: r.startedAt.toISOString() }))
}

/** What an assistant reports having done (log_gpt_action). */
export interface GptAction {
  /** A short name of the action, e.g. `drafted_reply`; recorded as `gpt.<action>`. */
  action: string
  targetType?: string
  targetId?: string
}

/**
 * The spec's `log_gpt_action`: one audit row with actor type `gpt` (and the caller's credential
 * and user), action `gpt.<action>`, the target named if any. No free text is taken, so an
 * assistant cannot copy document text into the audit log.
 */
export async function logGptAction(db: Db, principal: Principal, input: GptAction) {
  const gpt: Principal = { ...principal, actorType: 'gpt' }
  const action = `gpt.${input.action}`
  await withTenant(db, gpt, (tx) =>
    recordAudit(tx, gpt, action, {
      type: input.targetType ?? 'assistant',
      id: input.targetId ?? null,
    }),
  )
  return { action, actorType: gpt.actorType }
}

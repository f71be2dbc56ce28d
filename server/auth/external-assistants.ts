/**
 * The owner's switch for external assistants (a custom GPT through the assistants' OpenAPI file,
 * an MCP client at /mcp): off for a new organisation, because turning it on sends the firm's
 * documents to the assistant's provider (issue 23, decision 0049). The switch is the
 * `org_settings.external_assistants_enabled` row of the organisation (no row: off), read under
 * RLS; the connect-gpt feature sets it. Routes only assistants call are gated by
 * `externalAssistantsGate` after the route guard; /mcp checks `assertExternalAssistants` itself.
 */
import type { FastifyRequest } from 'fastify'
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { orgSettings } from '../db/schema'
import { withTenantReads, type Principal } from '../db/tenant'
import { AppError } from '../errors/app-error'

/** Whether the organisation of `principal` has turned external assistants on. */
export async function externalAssistantsEnabled(
  db: Db,
  principal: Pick<Principal, 'orgId'>,
): Promise<boolean> {
  const [rows] = await withTenantReads(db, principal, (tx) => [
    tx
      .select({ enabled: orgSettings.externalAssistantsEnabled })
      .from(orgSettings)
      .where(eq(orgSettings.orgId, principal.orgId)),
  ])
  return rows[0]?.enabled ?? false
}

/** Throws a 403 problem `external_assistants_disabled` unless the switch is on. */
export async function assertExternalAssistants(
  db: Db,
  principal: Pick<Principal, 'orgId'>,
): Promise<void> {
  if (await externalAssistantsEnabled(db, principal)) return
  throw new AppError(
    'external_assistants_disabled',
    'External assistants are turned off for this organisation; an owner can turn them on in Connect GPT.',
  )
}

/**
 * An onRequest hook for a route under `/api/v1` that only external assistants call: it runs
 * after the route guard (route-roles.ts puts the guard first), so a caller is authenticated and
 * admitted before the switch is looked at, and the 403 never tells an outsider anything.
 */
export function externalAssistantsGate(db: Db) {
  return async (req: FastifyRequest): Promise<void> => {
    if (!req.principal) throw new AppError('unauthenticated', 'Not authenticated')
    await assertExternalAssistants(db, req.principal)
  }
}

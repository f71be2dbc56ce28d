/**
 * Tenant transactions. Handlers reach tenant tables only through `withTenant`, which opens a
 * transaction, drops to the non-superuser role `lexdesk_app` (so row-level security applies even
 * on PGlite, whose default user is a superuser) and sets `app.org_id` for the RLS policies.
 */
import { sql } from 'drizzle-orm'
import type { Db } from './client'

/** Who is acting, for which organisation. `orgId` is the tenant every query is confined to. */
export interface Principal {
  orgId: string
  userId: string | null
  role: 'owner' | 'admin' | 'member'
  actorType: 'user' | 'api_key' | 'gpt' | 'system'
}

/** A transaction handle as Drizzle passes it to `db.transaction` callbacks. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/**
 * Runs `fn` in a transaction confined by RLS to `principal.orgId`; rolls back if `fn` throws.
 * The role switch and the org setting go in one statement (one round trip): `set_config('role',
 * …, true)` is what `SET LOCAL ROLE` does, and both settings end with the transaction.
 */
export function withTenant<T>(
  db: Db,
  principal: Pick<Principal, 'orgId'>,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT set_config('role', 'lexdesk_app', true), set_config('app.org_id', ${principal.orgId}, true)`,
    )
    return fn(tx)
  })
}

/** Apps of an organisation, read and written through a tenant transaction. */
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { apps } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { readPage } from '../../lists/list-kit'
import { AppError } from '../../errors/app-error'
import { recordAudit } from '../../audit/record-audit'
import { recordEvent } from '../../events/record-event'
import { isUniqueViolation } from '../../db/constraint-violation'

type AppRow = typeof apps.$inferSelect
const toApp = (row: AppRow) => ({
  id: row.id,
  slug: row.slug,
  orgId: row.orgId,
  createdAt: row.createdAt.toISOString(),
})

/**
 * A page of the org's apps ordered by slug, with the total count; for a credential bound to one
 * app, that app alone, as every other app does not exist for it (decision 0136, amended).
 */
export async function listApps(
  db: Db,
  principal: Principal,
  page: { limit: number; offset: number },
) {
  const { rows, total } = await readPage(db, principal, apps, {
    where: principal.appId ? eq(apps.id, principal.appId) : undefined,
    orderBy: [asc(apps.slug)],
    ...page,
  })
  return { items: rows.map(toApp), total }
}

/** Creates an app; 409 problem if the slug is taken in this org. */
export async function createApp(db: Db, principal: Principal, slug: string) {
  try {
    return await withTenant(db, principal, async (tx) => {
      const [row] = await tx.insert(apps).values({ orgId: principal.orgId, slug }).returning()
      if (!row) throw new Error('insert returned no row')
      await recordAudit(tx, principal, 'app.create', { type: 'app', id: row.id }, { slug })
      await recordEvent(tx, principal, 'app.created', { appId: row.id, slug })
      return toApp(row)
    })
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('app_exists', `An app with slug "${slug}" already exists`)
    throw error
  }
}

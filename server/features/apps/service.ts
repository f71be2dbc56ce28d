/** Apps of an organisation, read and written through a tenant transaction. */
import { asc } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { apps } from '../../db/schema'
import { withTenant, type Principal } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../../audit/record-audit'
import { isUniqueViolation } from '../../db/unique-violation'

type AppRow = typeof apps.$inferSelect
const toApp = (row: AppRow) => ({
  id: row.id,
  slug: row.slug,
  orgId: row.orgId,
  createdAt: row.createdAt.toISOString(),
})

/** The org's apps ordered by slug. */
export async function listApps(db: Db, principal: Principal) {
  const rows = await withTenant(db, principal, (tx) =>
    tx.select().from(apps).orderBy(asc(apps.slug)),
  )
  return rows.map(toApp)
}

/** Creates an app; 409 problem if the slug is taken in this org. */
export async function createApp(db: Db, principal: Principal, slug: string) {
  try {
    return await withTenant(db, principal, async (tx) => {
      const [row] = await tx.insert(apps).values({ orgId: principal.orgId, slug }).returning()
      if (!row) throw new Error('insert returned no row')
      await recordAudit(tx, principal, 'app.create', { type: 'app', id: row.id }, { slug })
      return toApp(row)
    })
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('app_exists', 409, `An app with slug "${slug}" already exists`)
    throw error
  }
}

/** The role a user holds in an organisation, read from better-auth's `member` table. */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { member } from '../db/schema'
import { toRole, type Role } from '../db/roles'

/** The role of `userId` in `orgId`, or null when they are not a member. */
export async function memberRole(db: Db, userId: string, orgId: string): Promise<Role | null> {
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, orgId), eq(member.userId, userId)))
    .limit(1)
  return row ? toRole(row.role) : null
}

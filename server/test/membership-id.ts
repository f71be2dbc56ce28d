/**
 * The better-auth `member` row id of a test member in its organisation (the team routes'
 * `memberId`), read directly from the database. Throws when `who` is not a member of `orgId`.
 */
import { and, eq } from 'drizzle-orm'
import { member } from '../db/schema'
import type { TestApp, TestMember } from './test-app'

export async function membershipIdOf(
  t: TestApp,
  who: Pick<TestMember, 'userId'>,
  orgId: string,
): Promise<string> {
  const [row] = await t.database.db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.organizationId, orgId), eq(member.userId, who.userId)))
  if (!row) throw new Error(`${who.userId} is not a member of ${orgId}`)
  return row.id
}

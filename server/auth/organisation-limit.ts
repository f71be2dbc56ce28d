/**
 * How many organisations one person may own (MAX_ORGANIZATIONS_PER_USER, issue 41, decision
 * 0109). The storage quota is counted per organisation, so a person free to create organisations
 * had as much storage as they liked; every path that creates one (better-auth's create, an
 * archive imported as a new organisation, a clone) asks this check first. Ownership is what is
 * counted: being invited into other firms takes nothing from a person's own allowance, and the
 * hidden staging organisation of an import has no member, so it is not counted either.
 */
import { and, count, eq, ne, sql } from 'drizzle-orm'
import { member } from '../db/schema'
import type { Tx } from '../db/tenant'
import { AppError } from '../errors/app-error'

/** Organisations one person may own when MAX_ORGANIZATIONS_PER_USER is not set; see decision 0109. */
export const DEFAULT_MAX_ORGANIZATIONS_PER_USER = 10

/** The 403 of a person who owns `limit` organisations already, naming the limit. */
export function organisationLimitReached(limit: number): AppError {
  return new AppError(
    'organization_limit_reached',
    `You already own ${limit} organizations, the most one person may own on this server (MAX_ORGANIZATIONS_PER_USER). Delete one you no longer need, or ask whoever runs this server to raise the limit.`,
  )
}

/**
 * Passes when user `userId` owns fewer than `limit` organisations besides `newOrgId` (one being
 * created, whose owner row may already be written); throws 403 `organization_limit_reached`
 * otherwise. First takes a lock of this person for the rest of `tx`
 * (`pg_advisory_xact_lock`), so that two creations counted in transactions, on any instance, are
 * counted one after the other: a creation that writes its owner row in `tx` (an import's
 * publication) is seen by every later count, and a count made after an owner row was written
 * elsewhere (better-auth's create) sees every creation committed before it.
 */
export async function assertOrganisationAllowance(
  tx: Tx,
  userId: string,
  limit: number,
  newOrgId?: string,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`organizations-of:${userId}`}))`)
  const [owned] = await tx
    .select({ n: count() })
    .from(member)
    .where(
      and(
        eq(member.userId, userId),
        eq(member.role, 'owner'),
        newOrgId === undefined ? undefined : ne(member.organizationId, newOrgId),
      ),
    )
  if ((owned?.n ?? 0) >= limit) throw organisationLimitReached(limit)
}

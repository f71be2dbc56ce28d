/**
 * The organisation's own record and its members, for the archive. Both live in better-auth's
 * tables (organization, member, user), which have no row-level security and are read by the
 * server itself, never inside a tenant transaction; each read names the organisation.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { member, organization, user } from '../../db/schema'
import { AppError, notFound } from '../../errors/app-error'

/** An archive's member line: the source's user id (rows' `created_by` name it), e-mail, role. */
export interface ArchivedMember {
  user_id: string
  email: string
  role: string
}

/** The organisation's id, name and slug; 404 `not_found` if it is gone. */
export async function sourceOrganisation(
  db: Db,
  orgId: string,
): Promise<{ orgId: string; name: string; slug: string }> {
  const [org] = await db
    .select({ name: organization.name, slug: organization.slug })
    .from(organization)
    .where(eq(organization.id, orgId))
  if (!org) throw notFound('Organization')
  return { orgId, ...org }
}

/**
 * The organisation's first owner (by membership), who owns what the operator's commands make
 * of it; 404 `organization_not_found` if it has none.
 */
export async function firstOwner(db: Db, orgId: string): Promise<string> {
  const [owner] = await db
    .select({ userId: member.userId })
    .from(member)
    .where(and(eq(member.organizationId, orgId), eq(member.role, 'owner')))
    .orderBy(asc(member.createdAt), asc(member.id))
    .limit(1)
  if (!owner) throw new AppError('organization_not_found', 'The organization has no owner.')
  return owner.userId
}

/** The organisation's members in pages of `pageSize`, ordered by membership id. */
export async function* orgMembers(
  db: Db,
  orgId: string,
  pageSize: number,
): AsyncGenerator<ArchivedMember[]> {
  let after: string | null = null
  for (;;) {
    const rows = await db
      .select({ id: member.id, user_id: user.id, email: user.email, role: member.role })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(
        and(eq(member.organizationId, orgId), after === null ? undefined : gt(member.id, after)),
      )
      .orderBy(asc(member.id))
      .limit(pageSize)
    if (rows.length === 0) return
    yield rows.map(({ user_id, email, role }) => ({ user_id, email, role }))
    after = rows[rows.length - 1]!.id
    if (rows.length < pageSize) return
  }
}

/**
 * Passes when `userId` owns `orgId` (an import into an existing organisation needs its owner,
 * decision 0071); 404 `organization_not_found` when the organisation is unknown or the user is
 * not a member (as any organisation one cannot see), 403 `forbidden` for a member below owner.
 */
export async function assertOwnerOf(db: Db, userId: string, orgId: string): Promise<void> {
  const [membership] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, orgId), eq(member.userId, userId)))
  if (!membership) throw notFound('Organization')
  if (membership.role !== 'owner')
    throw new AppError('forbidden', 'Only an owner of the target organisation can import into it.')
}

/** The id of the organisation whose slug is `slug`; 404 `organization_not_found` if none. */
export async function orgIdBySlug(db: Db, slug: string): Promise<string> {
  const [org] = await db
    .select({ id: organization.id })
    .from(organization)
    .where(eq(organization.slug, slug))
  if (!org) throw new AppError('organization_not_found', `No organization has the slug ${slug}.`)
  return org.id
}

/** The slug of the organisation `orgId` (which the operator's next command names it by). */
export async function orgSlugById(db: Db, orgId: string): Promise<string> {
  const [org] = await db
    .select({ slug: organization.slug })
    .from(organization)
    .where(eq(organization.id, orgId))
  if (!org) throw new AppError('organization_not_found', `No organization has the id ${orgId}.`)
  return org.slug
}

/** The id of this server's account whose e-mail is `email` (any case), or undefined. */
export async function userIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const [found] = await db
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = lower(${email})`)
    .limit(1)
  return found?.id
}

/**
 * better-auth's `hooks.before` for its organisation endpoints: slug rules, and answers that say
 * nothing about other firms (issue 29, point 8).
 * - A slug (create, update) must be lower-case letters, digits and inner dashes, at most 100
 *   characters (400 otherwise). Slugs are unique across every tenant, and better-auth answered a
 *   taken one "Organization already exists" (an oracle of other firms' slugs): the slug asked for
 *   always gets a random suffix (`acme-law` → `acme-law-k3v9x0qa`, 36^8 ≈ 2.8·10^12 choices), so
 *   a taken and a free slug are answered alike.
 * - A member id (update-member-role, remove-member) of another organisation than the one acted on
 *   was answered 403 (or "the only owner") where an invented id got 400 "Member not found": such
 *   an id is replaced by one no member has, so better-auth answers it exactly as an invented one.
 * - `resend` on invite-member is kept only when the address has a pending invitation to that
 *   organisation (otherwise it would create one), so that `resend: true` always means a resend to
 *   the audit (membership-audit.ts).
 */
import { randomInt } from 'node:crypto'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'

/** An organisation slug: lower-case letters, digits and inner dashes, at most 100 characters. */
const ORGANISATION_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/
const SLUG_MAX = 100
const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
const SUFFIX_LENGTH = 8

/** A member id no member has (better-auth's are 32 random alphanumerics). */
const NO_MEMBER = 'no-such-member'

type AuthMiddlewareContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]

/** `slug` (valid) with a random suffix, cut so that the whole stays within SLUG_MAX. */
function suffixed(slug: string): string {
  const suffix = Array.from(
    { length: SUFFIX_LENGTH },
    () => SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)],
  ).join('')
  const base = slug.slice(0, SLUG_MAX - SUFFIX_LENGTH - 1).replace(/-+$/, '')
  return `${base}-${suffix}`
}

/** Checks and suffixes the slug of a create or update body; the body to use, if changed. */
function slugRule(ctx: AuthMiddlewareContext) {
  const creating = ctx.path === '/organization/create'
  if (!creating && ctx.path !== '/organization/update') return undefined
  const body = ctx.body as { slug?: unknown; data?: { slug?: unknown } } | undefined
  const slug = creating ? body?.slug : body?.data?.slug
  if (slug === undefined) return undefined
  if (typeof slug !== 'string' || !ORGANISATION_SLUG.test(slug)) {
    throw new APIError('BAD_REQUEST', {
      message: 'A slug holds lower-case letters, digits and dashes (at most 100).',
    })
  }
  return creating
    ? { ...body, slug: suffixed(slug) }
    : { ...body, data: { ...body?.data, slug: suffixed(slug) } }
}

const MEMBER_ID_FIELD: Record<string, string> = {
  '/organization/update-member-role': 'memberId',
  '/organization/remove-member': 'memberIdOrEmail',
}

/** The body to use when it names a member of another organisation than the one acted on. */
async function foreignMemberRule(ctx: AuthMiddlewareContext) {
  const field = MEMBER_ID_FIELD[ctx.path]
  if (field === undefined) return undefined
  const body = ctx.body as Record<string, unknown> | undefined
  const memberId = body?.[field]
  // An e-mail address is looked up inside the organisation acted on already.
  if (typeof memberId !== 'string' || memberId.includes('@')) return undefined
  const session = await getSessionFromCtx(ctx)
  const orgId =
    typeof body?.organizationId === 'string' && body.organizationId !== ''
      ? body.organizationId
      : session?.session.activeOrganizationId
  if (!session || !orgId) return undefined
  const target = await ctx.context.adapter.findOne<{ organizationId: string }>({
    model: 'member',
    where: [{ field: 'id', value: memberId }],
  })
  return target && target.organizationId !== orgId ? { ...body, [field]: NO_MEMBER } : undefined
}

/** The body to use when invite-member asks to resend an invitation that is not pending. */
async function resendRule(ctx: AuthMiddlewareContext) {
  if (ctx.path !== '/organization/invite-member') return undefined
  const body = ctx.body as Record<string, unknown> | undefined
  if (body?.resend !== true || typeof body.email !== 'string') return undefined
  const session = await getSessionFromCtx(ctx)
  const orgId =
    typeof body.organizationId === 'string'
      ? body.organizationId
      : session?.session.activeOrganizationId
  if (!orgId) return undefined
  const pending = await ctx.context.adapter.findOne<{ id: string }>({
    model: 'invitation',
    where: [
      { field: 'organizationId', value: orgId },
      { field: 'email', value: body.email.toLowerCase() },
      { field: 'status', value: 'pending' },
    ],
  })
  return pending ? undefined : { ...body, resend: false }
}

/** The `hooks.before` middleware: replaces the request body where a rule above says so. */
export const organisationRules = createAuthMiddleware(async (ctx) => {
  const body = slugRule(ctx) ?? (await foreignMemberRule(ctx)) ?? (await resendRule(ctx))
  return body === undefined ? undefined : { context: { body } }
})

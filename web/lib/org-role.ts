/**
 * The signed-in person's role in the organisation a dashboard screen shows (owner, admin or
 * member), provided by the `/dashboard/:orgSlug` route element beside the scope (org-scope.ts),
 * so a screen asks only what the role may read: a member's screens never send the admin-only
 * requests the server would refuse with 403. The server holds the rules; this only spares the
 * requests and says so.
 */
import { createContext, useContext } from 'react'

/** An organisation role, ordered member < admin < owner. */
export type OrgRole = 'owner' | 'admin' | 'member'

/** Set by the `:orgSlug` route element once the role is read; null outside it. */
export const OrgRoleContext = createContext<OrgRole | null>(null)

/**
 * The role of the signed-in person in the current organisation. Throws outside
 * `/dashboard/:orgSlug/…` (a screen rendered elsewhere is a wiring bug).
 */
export function useOrgRole(): OrgRole {
  const role = useContext(OrgRoleContext)
  if (role === null) throw new Error('useOrgRole must be used under /dashboard/:orgSlug')
  return role
}

/** Whether `role` manages the organisation (owners and admins: keys, tokens, audit, SQL, team). */
export function managesOrganisation(role: OrgRole): boolean {
  return role !== 'member'
}

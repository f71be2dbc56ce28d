/**
 * Organisation roles and their order (better-auth's organization plugin: owner, admin, member).
 * A route names the least role it admits (`config.minRole`, see route-roles.ts); every higher role
 * is admitted too. The full matrix is in docs/authorization.md.
 */
export const ROLES = ['member', 'admin', 'owner'] as const

export type Role = (typeof ROLES)[number]

/** Whether `role` is `minRole` or above it (member < admin < owner). */
export function hasRole(role: Role, minRole: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minRole)
}

/**
 * Reads a member's role as better-auth stores it: one role, or several joined by commas (then the
 * highest counts, as better-auth unites their permissions). Unknown names count as 'member'.
 */
export function toRole(stored: string): Role {
  const known = stored.split(',').map((name) => ROLES.indexOf(name.trim() as Role))
  return ROLES[Math.max(0, ...known)] ?? 'member'
}

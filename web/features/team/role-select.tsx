import type { TeamRole } from './api'

/** The roles a manager may grant: an admin never grants owner (the server refuses it too). */
export function grantableRoles(managerRole: TeamRole): TeamRole[] {
  return managerRole === 'owner' ? ['member', 'admin', 'owner'] : ['member', 'admin']
}

/** A native select of `roles`, labelled `label`. */
export function RoleSelect({
  label,
  value,
  roles,
  disabled,
  onChange,
}: {
  label: string
  value: TeamRole
  roles: TeamRole[]
  disabled?: boolean
  onChange: (role: TeamRole) => void
}) {
  return (
    <select
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as TeamRole)}
      className="h-9 rounded-md border border-input bg-background px-2 text-sm disabled:opacity-50"
    >
      {(roles.includes(value) ? roles : [value, ...roles]).map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  )
}

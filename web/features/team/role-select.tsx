import { LabelledSelect } from '../../components/labelled-select'
import type { TeamRole } from './api'

/** The roles a manager may grant: an admin never grants owner (the server refuses it too). */
export function grantableRoles(managerRole: TeamRole): TeamRole[] {
  return managerRole === 'owner' ? ['member', 'admin', 'owner'] : ['member', 'admin']
}

/**
 * A select of `roles` named `label`: in a table row (`inRow`) the label is for screen readers
 * only, the column's header saying it for sight. The current role stays a choice when `roles`
 * does not hold it (an admin looking at an owner).
 */
export function RoleSelect({
  label,
  value,
  roles,
  disabled,
  inRow = false,
  onChange,
}: {
  label: string
  value: TeamRole
  roles: TeamRole[]
  disabled?: boolean
  inRow?: boolean
  onChange: (role: TeamRole) => void
}) {
  return (
    <LabelledSelect
      label={label}
      labelClassName={inRow ? 'sr-only' : undefined}
      value={value}
      disabled={disabled}
      onValueChange={(role) => onChange(role as TeamRole)}
      options={roles.map((role) => ({ value: role, label: role }))}
    />
  )
}

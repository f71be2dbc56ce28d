import { LabelledSelect } from '../../../components/labelled-select'
import type { PartyRole, WeActFor } from '../api/types'

/** The roles offered, in the order a lawyer looks for them (the server's PartyRole). */
const ROLES: readonly PartyRole[] = [
  'customer',
  'supplier',
  'licensee',
  'licensor',
  'distributor',
  'employee',
  'employer',
  'franchisee',
  'franchisor',
  'lender',
  'borrower',
  'landlord',
  'tenant',
]

interface WeActForChoiceProps {
  parties: readonly { name: string; role?: string }[]
  /** The document's stored choice; null when none. */
  value: WeActFor | null
  /** The party the choice resolved to in this analysis (shown when chosen by role). */
  ourParty: string | null
  /** Saves a new choice (null clears it). */
  onChange: (choice: WeActFor | null) => void
  /** True while a choice is being saved. */
  saving: boolean
}

/**
 * Whom the firm acts for: one of the extracted parties (radio) or a role (select); "Not set"
 * leaves each risk naming the party that bears it. Each change is saved on the document.
 */
export function WeActForChoice({
  parties,
  value,
  ourParty,
  onChange,
  saving,
}: WeActForChoiceProps) {
  const options = [
    { key: '', label: 'Not set' },
    ...parties.map((p) => ({ key: p.name, label: p.role ? `${p.name} (${p.role})` : p.name })),
  ]
  const chosenParty = value?.kind === 'party' ? value.party : value === null ? '' : null
  return (
    <fieldset className="flex flex-col gap-1 text-sm" disabled={saving}>
      <legend className="mb-1 font-medium">We act for</legend>
      {options.map((option) => (
        <label key={option.key || 'none'} className="flex items-center gap-2">
          <input
            type="radio"
            name="we-act-for"
            value={option.key}
            checked={chosenParty === option.key}
            onChange={() =>
              onChange(option.key === '' ? null : { kind: 'party', party: option.key })
            }
          />
          {option.label}
        </label>
      ))}
      <LabelledSelect
        label="or the"
        aria-label="We act for the role"
        layout="inline"
        className="mt-1"
        selectClassName="h-auto py-1"
        value={value?.kind === 'role' ? value.role : ''}
        onValueChange={(role) =>
          onChange(role === '' ? null : { kind: 'role', role: role as PartyRole })
        }
        placeholder="choose a role"
        options={ROLES.map((role) => ({ value: role, label: role }))}
      />
      {value?.kind === 'role' && (
        <p className="text-muted-foreground">
          {ourParty
            ? `The ${value.role}: ${ourParty}.`
            : `No party of this analysis is the ${value.role}.`}
        </p>
      )}
    </fieldset>
  )
}

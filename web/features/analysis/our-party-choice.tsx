interface OurPartyChoiceProps {
  parties: readonly { name: string; role?: string }[]
  value: string | null
  onChange: (party: string | null) => void
}

/** Radio choice of the party the firm acts for ("Not set" leaves risks neutral). */
export function OurPartyChoice({ parties, value, onChange }: OurPartyChoiceProps) {
  const options = [
    { key: '', label: 'Not set' },
    ...parties.map((p) => ({ key: p.name, label: p.role ? `${p.name} (${p.role})` : p.name })),
  ]
  return (
    <fieldset className="flex flex-col gap-1 text-sm">
      <legend className="mb-1 font-medium">Our party</legend>
      {options.map((option) => (
        <label key={option.key || 'none'} className="flex items-center gap-2">
          <input
            type="radio"
            name="our-party"
            value={option.key}
            checked={(value ?? '') === option.key}
            onChange={() => onChange(option.key === '' ? null : option.key)}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  )
}

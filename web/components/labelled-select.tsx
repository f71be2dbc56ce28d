import { useId, type ComponentProps, type ReactNode } from 'react'
import { cn } from '../lib/utils'

/** One choice of a `LabelledSelect`. */
export interface SelectOption {
  value: string
  label: ReactNode
  disabled?: boolean
}

interface LabelledSelectProps extends Omit<
  ComponentProps<'select'>,
  'value' | 'onChange' | 'children'
> {
  /** The visible label, tied to the select (`htmlFor`). */
  label: ReactNode
  value: string
  onValueChange: (value: string) => void
  options: readonly SelectOption[]
  /** A first choice with value '' (e.g. 'All kinds'); `placeholderDisabled` makes it unpickable. */
  placeholder?: string
  placeholderDisabled?: boolean
  /** 'stacked' puts the label above (forms, filter bars), 'inline' beside it. */
  layout?: 'stacked' | 'inline'
  /** Classes of the wrapper. */
  className?: string
  /** Classes of the label, e.g. `sr-only` for a select in a table row whose column names it. */
  labelClassName?: string
  selectClassName?: string
}

/**
 * A native `<select>` with its visible label: keyboard and screen readers get the platform's
 * own list. The current value stays a choice even when `options` no longer holds it (a filter
 * whose last row went), so the select never shows a value it is not set to.
 */
export function LabelledSelect({
  label,
  value,
  onValueChange,
  options,
  placeholder,
  placeholderDisabled = false,
  layout = 'stacked',
  className,
  labelClassName,
  selectClassName,
  id: givenId,
  ...props
}: LabelledSelectProps) {
  const ownId = useId()
  const id = givenId ?? ownId
  const shown =
    value === '' || options.some((option) => option.value === value)
      ? options
      : [...options, { value, label: value }]
  return (
    <div
      className={cn(
        'flex gap-1 text-sm',
        layout === 'stacked' ? 'flex-col' : 'items-center gap-2',
        className,
      )}
    >
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        className={cn(
          'h-9 rounded-md border border-input bg-background px-2 text-sm disabled:opacity-50',
          selectClassName,
        )}
        {...props}
      >
        {placeholder !== undefined && (
          <option value="" disabled={placeholderDisabled}>
            {placeholder}
          </option>
        )}
        {shown.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

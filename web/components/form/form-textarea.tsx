import type { ComponentProps, ReactNode } from 'react'
import { useFormContext, type FieldPath, type FieldValues } from 'react-hook-form'
import { cn } from '../../lib/utils'
import { Label } from '../ui/label'
import { Textarea } from '../ui/textarea'
import { useFieldNotes } from './use-field-notes'

interface FormTextareaProps<Values extends FieldValues> extends Omit<
  ComponentProps<'textarea'>,
  'name' | 'id' | 'form'
> {
  name: FieldPath<Values>
  label: ReactNode
  /** Classes of the label, e.g. `sr-only` when the form's purpose names the field for sight. */
  labelClassName?: string
  /** A hint under the field, read with it (aria-describedby). */
  hint?: ReactNode
  /** Classes of the wrapper (label, textarea, hint, error). */
  className?: string
  textareaClassName?: string
}

/**
 * A labelled multi-line field registered under `name`, like `FormField`: hint and error message
 * tied by `aria-describedby` (after any ids given in `aria-describedby`, e.g. a live notice kept
 * by the screen), `aria-invalid` while the message shows.
 */
export function FormTextarea<Values extends FieldValues>({
  name,
  label,
  labelClassName,
  hint,
  className,
  textareaClassName,
  'aria-describedby': givenDescribedBy,
  ...textareaProps
}: FormTextareaProps<Values>) {
  const { id, control, notes } = useFieldNotes<Values>(name, hint, givenDescribedBy)
  const { register } = useFormContext<Values>()
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <Label htmlFor={id} className={labelClassName}>
        {label}
      </Label>
      <Textarea {...control} className={textareaClassName} {...textareaProps} {...register(name)} />
      {notes}
    </div>
  )
}

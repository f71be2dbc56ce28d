import type { ComponentProps, ReactNode } from 'react'
import {
  FormProvider,
  useFormContext,
  type FieldPath,
  type FieldValues,
  type SubmitHandler,
  type UseFormReturn,
} from 'react-hook-form'
import { cn } from '../../lib/utils'
import { Button } from '../ui/button'
import { Input } from '../ui/input'
import { Label } from '../ui/label'
import { useFieldNotes } from './use-field-notes'

interface FormProps<Values extends FieldValues, Output> extends Omit<
  ComponentProps<'form'>,
  'onSubmit'
> {
  form: UseFormReturn<Values, unknown, Output>
  /** Called with the schema's parsed values once they pass. */
  onSubmit: SubmitHandler<Output>
}

/**
 * A `<form>` bound to a react-hook-form form (`useZodForm`): provides it to the fields below and
 * submits parsed values. `noValidate`: the schema, not the browser, says what is wrong, in the
 * field's own message.
 */
export function Form<Values extends FieldValues, Output>({
  form,
  onSubmit,
  children,
  ...props
}: FormProps<Values, Output>) {
  return (
    <FormProvider {...form}>
      <form noValidate {...props} onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        {children}
      </form>
    </FormProvider>
  )
}

interface FormFieldProps<Values extends FieldValues> extends Omit<
  ComponentProps<'input'>,
  'name' | 'id' | 'form'
> {
  name: FieldPath<Values>
  label: ReactNode
  /** A hint under the field, read with it (aria-describedby). */
  hint?: ReactNode
  /** Classes of the wrapper (label, input, hint, error). */
  className?: string
  inputClassName?: string
  /** Rewrites what is typed as it is typed (e.g. to lower case), in the field and its value. */
  normalize?: (value: string) => string
}

/**
 * A labelled text input registered under `name`: its hint and its error message are tied to it
 * by `aria-describedby`, and it is `aria-invalid` while the message shows.
 */
export function FormField<Values extends FieldValues>({
  name,
  label,
  hint,
  className,
  inputClassName,
  normalize,
  ...inputProps
}: FormFieldProps<Values>) {
  const { id, control, notes } = useFieldNotes<Values>(name, hint)
  const { register } = useFormContext<Values>()
  const registered = register(name)
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        {...control}
        className={inputClassName}
        {...inputProps}
        {...registered}
        onChange={(event) => {
          if (normalize) event.target.value = normalize(event.target.value)
          return registered.onChange(event)
        }}
      />
      {notes}
    </div>
  )
}

interface FormSubmitProps extends Omit<ComponentProps<typeof Button>, 'type'> {
  /** True while the request the form sent runs (a mutation's `isPending`). */
  pending: boolean
  /** The label while pending, e.g. 'Creating…'. */
  pendingLabel?: ReactNode
}

/** The form's submit button: disabled while its request runs, so a double click sends one. */
export function FormSubmit({
  pending,
  pendingLabel,
  disabled,
  children,
  ...props
}: FormSubmitProps) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  )
}

/**
 * The server's refusal of the form (an `ApiError`'s problem detail is its `message`), as an
 * alert; nothing when there is none.
 */
export function FormProblem({
  error,
  className,
}: {
  error: Error | null | undefined
  className?: string
}) {
  if (!error) return null
  return (
    <p role="alert" className={cn('text-sm text-destructive', className)}>
      {error.message}
    </p>
  )
}

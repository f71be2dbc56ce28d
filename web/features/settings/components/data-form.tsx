import type { ReactNode } from 'react'
import type { FieldValues, UseFormReturn } from 'react-hook-form'
import { Form, FormSubmit } from '../../../components/form/form'

/**
 * A data-management form (Import, Clone) named `label`: its fields (`children`), then its
 * refusal (an alert with id `errorId`, which the refused field names in its `aria-describedby`,
 * when there is one) and its submit button `label`, disabled and relabelled (`busyLabel`, e.g.
 * 'Importing…') while the work runs; the form is `aria-busy` then. `onSubmit` gets the schema's
 * parsed values once they pass.
 */
export function DataForm<Values extends FieldValues, Output>(props: {
  form: UseFormReturn<Values, unknown, Output>
  label: string
  onSubmit: (values: Output) => void
  error: string | null
  errorId?: string
  busy: boolean
  icon: ReactNode
  busyLabel: string
  children: ReactNode
}) {
  return (
    <Form
      form={props.form}
      aria-busy={props.busy}
      aria-label={props.label}
      onSubmit={props.onSubmit}
      className="flex flex-col gap-3"
    >
      {props.children}
      {props.error && (
        <p id={props.errorId} role="alert" className="text-sm text-destructive">
          {props.error}
        </p>
      )}
      <div>
        <FormSubmit pending={props.busy}>
          {props.icon}
          {props.busy ? props.busyLabel : props.label}
        </FormSubmit>
      </div>
    </Form>
  )
}

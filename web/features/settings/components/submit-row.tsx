import type { ReactNode } from 'react'
import { FormSubmit } from '../../../components/form/form'

/**
 * The end of a data-management form: its refusal (an alert with id `errorId`, which the refused
 * field names in its `aria-describedby`, when there is one) and its submit button, disabled and
 * relabelled (`busyLabel`, e.g. 'Importing…') while the work runs.
 */
export function SubmitRow(props: {
  error: string | null
  errorId?: string
  busy: boolean
  icon: ReactNode
  label: string
  busyLabel: string
}) {
  return (
    <>
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
    </>
  )
}

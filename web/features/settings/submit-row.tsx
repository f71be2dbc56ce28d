import type { ReactNode } from 'react'
import { Button } from '../../components/ui/button'

/**
 * The end of a data-management form: its refusal (an alert, when there is one) and its submit
 * button, disabled and relabelled (`busyLabel`, e.g. 'Importing…') while the work runs.
 */
export function SubmitRow(props: {
  error: string | null
  busy: boolean
  icon: ReactNode
  label: string
  busyLabel: string
}) {
  return (
    <>
      {props.error && (
        <p role="alert" className="text-sm text-destructive">
          {props.error}
        </p>
      )}
      <div>
        <Button type="submit" disabled={props.busy}>
          {props.icon}
          {props.busy ? props.busyLabel : props.label}
        </Button>
      </div>
    </>
  )
}

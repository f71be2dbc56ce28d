import { useId, type ReactNode } from 'react'
import { useFormState, type FieldPath, type FieldValues } from 'react-hook-form'

/** What `useFieldNotes` gives a field: its control's attributes and the lines to put under it. */
export interface FieldNotes {
  /** The control's id (its label's `htmlFor`). */
  id: string
  /** Spread on the control: its id, `aria-invalid` while wrong, and `aria-describedby`. */
  control: { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }
  /** The hint line, then the error message line, each only when there is one. */
  notes: ReactNode
}

/**
 * The notes under a form field registered as `name` (`FormField`, `FormTextarea`): its `hint`
 * and the schema's message for it, tied to the control by `aria-describedby` after the ids in
 * `describedBy` (e.g. a live notice the screen keeps), and `aria-invalid` while the message shows.
 * Reads the form's state, so it must be called under a `Form`.
 */
export function useFieldNotes<Values extends FieldValues>(
  name: FieldPath<Values>,
  hint?: ReactNode,
  describedBy?: string,
): FieldNotes {
  const id = useId()
  const { errors } = useFormState<Values>({ name })
  const message = messageAt(errors, name)
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const described = [describedBy, hint ? hintId : null, message ? errorId : null]
    .filter(Boolean)
    .join(' ')
  return {
    id,
    control: {
      id,
      'aria-invalid': message ? true : undefined,
      'aria-describedby': described || undefined,
    },
    notes: (
      <>
        {hint && (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )}
        {message && (
          <p id={errorId} className="text-xs text-destructive">
            {message}
          </p>
        )}
      </>
    ),
  }
}

/** The message of field `name` (dotted paths too) in react-hook-form's `errors`, or undefined. */
function messageAt(errors: Record<string, unknown>, name: string): string | undefined {
  let node: unknown = errors
  for (const part of name.split('.')) {
    if (!node || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part]
  }
  const message = (node as { message?: unknown } | undefined)?.message
  return typeof message === 'string' ? message : undefined
}

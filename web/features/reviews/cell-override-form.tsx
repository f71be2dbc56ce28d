import { useFormContext } from 'react-hook-form'
import * as z from 'zod/mini'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useFieldNotes } from '../../components/form/use-field-notes'
import { useZodForm } from '../../components/form/use-zod-form'
import { Button } from '../../components/ui/button'
import { Label } from '../../components/ui/label'
import type { ReviewAnswer, ReviewPreset } from './api'

type AnswerType = ReviewPreset['answerType']

/** A lawyer's answer as the form sends it: null when it is not in the document. */
export interface OverrideInput {
  answer: ReviewAnswer | null
  note: string | null
}

/**
 * The answer `value` (and `extra`: a currency, or a period's words) means in a column of type
 * `type`, or null when it does not parse (an amount that is no number).
 */
function answerOf(type: AnswerType, value: string, extra: string): ReviewAnswer | null {
  const text = value.trim()
  const split = () =>
    text
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean)
  switch (type) {
    case 'yes_no':
      return { type, value: text === 'yes' }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? { type, value: text } : null
    case 'duration': {
      const months = Number(text)
      return text !== '' && Number.isFinite(months) && months >= 0
        ? { type, months, text: extra.trim() || `${months} months` }
        : null
    }
    case 'money': {
      const amount = Number(text)
      const currency = extra.trim().toUpperCase()
      return text !== '' && Number.isFinite(amount) && /^[A-Z]{3}$/.test(currency)
        ? { type, amount, currency }
        : null
    }
    case 'party':
      return split().length > 0 ? { type, names: split() } : null
    case 'list':
      return split().length > 0 ? { type, items: split() } : null
    case 'text':
      return text ? { type, value: text } : null
  }
}

const VALUE_LABEL: Record<AnswerType, string> = {
  yes_no: 'Answer',
  date: 'Date',
  duration: 'Months',
  money: 'Amount',
  party: 'Names (separated by ;)',
  list: 'Items (separated by ;)',
  text: 'Answer',
}

/** What a value that does not parse is told, by the column's type. */
const VALUE_PROBLEM: Record<AnswerType, string> = {
  yes_no: 'Choose Yes or No.',
  date: 'Give the date as YYYY-MM-DD.',
  duration: 'Give the months as a number (0 or more).',
  money: 'Give the amount as a number and the currency as three letters (EUR).',
  party: 'Give at least one name.',
  list: 'Give at least one item.',
  text: 'Give the answer.',
}

/**
 * The override form's values for a column of type `type`, checked on submit: unless "not in the
 * document", the value (with `extra`) must parse as the type's answer (answerOf), else
 * VALUE_PROBLEM is said under the value's field.
 */
const overrideSchema = (type: AnswerType) =>
  z.object({ absent: z.boolean(), value: z.string(), extra: z.string(), note: z.string() }).check(
    z.superRefine((values, context) => {
      if (!values.absent && answerOf(type, values.value, values.extra) === null)
        context.issues.push({
          code: 'custom',
          path: ['value'],
          message: VALUE_PROBLEM[type],
          input: values,
        })
    }),
  )
type OverrideValues = z.input<ReturnType<typeof overrideSchema>>

/**
 * The override of one cell in a column of type `type` (the house form kit: errors under their
 * fields): the lawyer's answer in that type (or "not in the document") and a note; `onSave`
 * gets what to send. Disabled while `pending`.
 */
export function CellOverrideForm(props: {
  type: AnswerType
  pending: boolean
  onSave(input: OverrideInput): void
  onCancel(): void
}) {
  const { type } = props
  const form = useZodForm(overrideSchema(type), {
    absent: false,
    value: type === 'yes_no' ? 'yes' : '',
    extra: '',
    note: '',
  })
  const absent = form.watch('absent')
  return (
    <Form
      form={form}
      aria-label="Override"
      className="mt-3 flex flex-col gap-2"
      onSubmit={(values) =>
        props.onSave({
          answer: values.absent ? null : answerOf(type, values.value, values.extra),
          note: values.note.trim() || null,
        })
      }
    >
      <label className="flex items-center gap-2">
        <input type="checkbox" {...form.register('absent')} />
        Not in the document
      </label>
      {!absent &&
        (type === 'yes_no' ? (
          <YesNoField />
        ) : (
          <FormField<OverrideValues>
            name="value"
            label={VALUE_LABEL[type]}
            type={type === 'date' ? 'date' : 'text'}
            inputMode={type === 'duration' || type === 'money' ? 'decimal' : undefined}
          />
        ))}
      {!absent && (type === 'money' || type === 'duration') && (
        <FormField<OverrideValues>
          name="extra"
          label={type === 'money' ? 'Currency (ISO 4217, e.g. EUR)' : 'As the document words it'}
          maxLength={type === 'money' ? 3 : 200}
        />
      )}
      <FormField<OverrideValues> name="note" label="Note" maxLength={2000} />
      <div className="flex gap-2">
        <FormSubmit size="sm" pending={props.pending}>
          Save override
        </FormSubmit>
        <Button type="button" size="sm" variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  )
}

/** The Yes/No choice of a yes/no column's override, with its notes (useFieldNotes). */
function YesNoField() {
  const { id, control, notes } = useFieldNotes<OverrideValues>('value')
  const { register } = useFormContext<OverrideValues>()
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{VALUE_LABEL.yes_no}</Label>
      <select
        {...control}
        className="h-9 rounded-md border bg-background px-2"
        {...register('value')}
      >
        <option value="yes">Yes</option>
        <option value="no">No</option>
      </select>
      {notes}
    </div>
  )
}

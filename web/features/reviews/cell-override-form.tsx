import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
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

/**
 * The override of one cell in a column of type `type`: the lawyer's answer in that type (or "not
 * in the document") and a note; `onSave` gets what to send. Disabled while `pending`.
 */
export function CellOverrideForm(props: {
  type: AnswerType
  pending: boolean
  onSave(input: OverrideInput): void
  onCancel(): void
}) {
  const { type } = props
  const [absent, setAbsent] = useState(false)
  const [value, setValue] = useState(type === 'yes_no' ? 'yes' : '')
  const [extra, setExtra] = useState('')
  const [note, setNote] = useState('')
  const answer = absent ? null : answerOf(type, value, extra)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    props.onSave({ answer, note: note.trim() || null })
  }
  return (
    <form aria-label="Override" className="mt-3 flex flex-col gap-2" onSubmit={submit}>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={absent} onChange={(e) => setAbsent(e.target.checked)} />
        Not in the document
      </label>
      {!absent && (
        <>
          <Label htmlFor="override-value">{VALUE_LABEL[type]}</Label>
          {type === 'yes_no' ? (
            <select
              id="override-value"
              className="h-9 rounded-md border bg-background px-2"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            >
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </select>
          ) : (
            <Input
              id="override-value"
              type={type === 'date' ? 'date' : 'text'}
              inputMode={type === 'duration' || type === 'money' ? 'decimal' : undefined}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
          {(type === 'money' || type === 'duration') && (
            <>
              <Label htmlFor="override-extra">
                {type === 'money' ? 'Currency (ISO 4217, e.g. EUR)' : 'As the document words it'}
              </Label>
              <Input
                id="override-extra"
                value={extra}
                maxLength={type === 'money' ? 3 : 200}
                onChange={(e) => setExtra(e.target.value)}
              />
            </>
          )}
        </>
      )}
      <Label htmlFor="override-note">Note</Label>
      <Input
        id="override-note"
        value={note}
        maxLength={2000}
        onChange={(e) => setNote(e.target.value)}
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={props.pending || (!absent && answer === null)}>
          Save override
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

import { useState } from 'react'
import { cellText } from '../columns'
import { parseData } from '../parse-data'

interface EditableCellProps {
  /** Accessible name, e.g. "name of Acme". */
  label: string
  value: unknown
  /** 'json' edits data as JSON text; invalid JSON alerts 'Invalid JSON: …' and keeps the edit. */
  kind: 'text' | 'json'
  /** Saves the new value; resolves to whether it was saved. */
  onSave: (value: string | Record<string, unknown>) => Promise<boolean>
}

/** A cell edited in place, saved on blur when changed (spec: name, type and data). */
export function EditableCell({ label, value, kind, onSave }: EditableCellProps) {
  const original = cellText(value)
  const [draft, setDraft] = useState(original)
  const [base, setBase] = useState(original)
  // A reload brought a new value (a colleague's save, live): show it, unless the user is
  // mid-edit of the old one, whose edit stays and is saved on blur over the new value.
  if (original !== base) {
    setBase(original)
    if (draft === base) setDraft(original)
  }
  async function save() {
    if (draft === original) return
    if (kind === 'json') {
      const parsed = parseData(draft)
      if ('error' in parsed) {
        window.alert(`Invalid JSON: ${parsed.error}`)
        return
      }
      await onSave(parsed.data)
      return
    }
    if (draft.trim() === '') {
      setDraft(original)
      return
    }
    await onSave(draft)
  }
  return (
    <input
      aria-label={label}
      value={draft}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => void save()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.currentTarget.blur()
        if (event.key === 'Escape') setDraft(original)
      }}
      className={`w-full min-w-24 rounded border border-transparent bg-transparent px-1 py-0.5 hover:border-input focus:border-input focus:outline-none focus:ring-1 focus:ring-ring ${kind === 'json' ? 'font-mono text-xs' : ''}`}
    />
  )
}

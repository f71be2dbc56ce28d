import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { EditableCell } from './editable-cell'

const cell = (value: string, onSave = vi.fn(async () => true)) => (
  <EditableCell label="name of Acme" value={value} kind="text" onSave={onSave} />
)

describe('EditableCell', () => {
  it('shows a value a reload brings when the cell is not being edited', () => {
    const { rerender } = render(cell('Acme'))
    rerender(cell('Acme Inc'))
    expect(screen.getByRole('textbox', { name: 'name of Acme' })).toHaveValue('Acme Inc')
  })

  it('keeps an edit in progress when a reload brings a new value, and saves it on blur', () => {
    const onSave = vi.fn(async () => true)
    const { rerender } = render(cell('Acme', onSave))
    const input = screen.getByRole('textbox', { name: 'name of Acme' })
    fireEvent.focus(input)
    fireEvent.change(input, { target: { value: 'Acme Holdings' } })
    rerender(cell('Acme Inc', onSave))
    expect(input).toHaveValue('Acme Holdings')
    fireEvent.blur(input)
    expect(onSave).toHaveBeenCalledWith('Acme Holdings')
  })
})

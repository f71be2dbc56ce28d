import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { LabelledSelect } from './labelled-select'

function Kind({ initial = '' }: { initial?: string }) {
  const [kind, setKind] = useState(initial)
  return (
    <>
      <LabelledSelect
        label="Kind"
        value={kind}
        onValueChange={setKind}
        placeholder="All kinds"
        options={[
          { value: 'upload', label: 'upload' },
          { value: 'delete', label: 'delete' },
        ]}
      />
      <output>{kind || '(all)'}</output>
    </>
  )
}

describe('LabelledSelect', () => {
  it('is named by its visible label and starts on its placeholder', () => {
    render(<Kind />)
    const select = screen.getByRole('combobox', { name: 'Kind' })
    expect(select).toHaveValue('')
    expect(screen.getByRole('option', { name: 'All kinds' })).toBeInTheDocument()
  })

  it('changes its value from the keyboard', async () => {
    const user = userEvent.setup()
    render(<Kind />)
    const select = screen.getByRole('combobox', { name: 'Kind' })
    await user.tab()
    expect(select).toHaveFocus()
    await user.selectOptions(select, 'delete')
    expect(screen.getByRole('status')).toHaveTextContent('delete')
  })

  it('keeps its current value a choice when the options no longer hold it', () => {
    render(<Kind initial="archived" />)
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveValue('archived')
    expect(screen.getByRole('option', { name: 'archived' })).toBeInTheDocument()
  })

  it('can hide its label from sight but not from screen readers (labelClassName)', () => {
    render(
      <LabelledSelect
        label="Role of Mia"
        labelClassName="sr-only"
        value="member"
        onValueChange={() => {}}
        options={[{ value: 'member', label: 'member' }]}
      />,
    )
    expect(screen.getByRole('combobox', { name: 'Role of Mia' })).toHaveValue('member')
    expect(screen.getByText('Role of Mia')).toHaveClass('sr-only')
  })
})

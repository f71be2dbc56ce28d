import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { DialogLayout } from './dialog-layout'
import { Dialog, DialogContent } from './ui/dialog'

function Confirm() {
  const [open, setOpen] = useState(true)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent>
        <DialogLayout
          title="Archive the matter?"
          description="It leaves the list."
          action={<button type="button">Archive</button>}
        >
          <p>Smith v Jones</p>
        </DialogLayout>
      </DialogContent>
    </Dialog>
  )
}

describe('DialogLayout', () => {
  it('names the dialog, focuses Cancel before the action, and closes on Cancel', async () => {
    render(<Confirm />)
    const dialog = screen.getByRole('dialog', { name: 'Archive the matter?' })
    expect(dialog).toHaveAccessibleDescription('It leaves the list.')
    expect(dialog).toHaveTextContent('Smith v Jones')
    const buttons = screen.getAllByRole('button').map((button) => button.textContent)
    expect(buttons.indexOf('Cancel')).toBeLessThan(buttons.indexOf('Archive'))
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

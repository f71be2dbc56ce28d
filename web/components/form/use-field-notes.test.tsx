import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import * as z from 'zod/mini'
import { Form, FormSubmit } from './form'
import { useFieldNotes } from './use-field-notes'
import { useZodForm } from './use-zod-form'

const schema = z.object({
  party: z.object({ name: z.string().check(z.minLength(1, 'Name the party.')) }),
})
type Values = z.input<typeof schema>

/** A control of the screen's own (not FormField), given its notes by the hook. */
function PartyName() {
  const { id, control, notes } = useFieldNotes<Values>('party.name', 'As on the contract.', 'lead')
  return (
    <div>
      <label htmlFor={id}>Party</label>
      <input {...control} />
      {notes}
    </div>
  )
}

function PartyForm() {
  const form = useZodForm(schema, { party: { name: '' } })
  return (
    <Form form={form} onSubmit={() => {}}>
      <p id="lead">Who the firm acts for.</p>
      <PartyName />
      <FormSubmit pending={false}>Save</FormSubmit>
    </Form>
  )
}

describe('useFieldNotes', () => {
  it("ties the given notice, the hint and a nested field's message to the control", async () => {
    render(<PartyForm />)
    const field = screen.getByLabelText('Party')
    expect(field).toHaveAccessibleDescription('Who the firm acts for. As on the contract.')
    expect(field).not.toHaveAttribute('aria-invalid')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Name the party.')).toHaveClass('text-destructive')
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription(
      'Who the firm acts for. As on the contract. Name the party.',
    )
  })

  it('writes no empty lines when there is neither hint nor message', () => {
    function Bare() {
      const form = useZodForm(schema, { party: { name: '' } })
      return (
        <Form form={form} onSubmit={() => {}} aria-label="Bare">
          <BareField />
        </Form>
      )
    }
    function BareField() {
      const { control, notes } = useFieldNotes<Values>('party.name')
      return (
        <>
          <input aria-label="Party" {...control} />
          {notes}
        </>
      )
    }
    render(<Bare />)
    expect(screen.getByLabelText('Party')).not.toHaveAttribute('aria-describedby')
    expect(screen.getByRole('form', { name: 'Bare' }).querySelectorAll('p')).toHaveLength(0)
  })
})

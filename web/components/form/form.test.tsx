import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import * as z from 'zod/mini'
import { Form, FormField, FormProblem, FormSubmit } from './form'
import { FormTextarea } from './form-textarea'
import { useZodForm } from './use-zod-form'

const schema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Give the organisation a name.')),
})

function NameForm({
  pending = false,
  problem = null,
  onSubmit,
}: {
  pending?: boolean
  problem?: Error | null
  onSubmit: (values: z.output<typeof schema>) => void
}) {
  const form = useZodForm(schema, { name: '' })
  return (
    <Form form={form} onSubmit={onSubmit}>
      <FormField<z.input<typeof schema>> name="name" label="Name" hint="You will be its owner." />
      <FormProblem error={problem} />
      <FormSubmit pending={pending} pendingLabel="Creating…">
        Create
      </FormSubmit>
    </Form>
  )
}

describe('Form kit', () => {
  it('labels its field and reads the hint with it', () => {
    render(<NameForm onSubmit={() => {}} />)
    const input = screen.getByLabelText('Name')
    expect(input).toHaveAccessibleDescription('You will be its owner.')
    expect(input).not.toHaveAttribute('aria-invalid')
  })

  it('refuses an invalid value with a message tied to the field, cleared once fixed', async () => {
    const sent: unknown[] = []
    const user = userEvent.setup()
    render(<NameForm onSubmit={(values) => sent.push(values)} />)
    const input = screen.getByLabelText('Name')
    await user.type(input, '   ')
    await user.keyboard('{Enter}')
    expect(await screen.findByText('Give the organisation a name.')).toBeInTheDocument()
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription(
      'You will be its owner. Give the organisation a name.',
    )
    expect(sent).toEqual([])
    await user.type(input, 'Smith LLP')
    expect(screen.queryByText('Give the organisation a name.')).toBeNull()
    await user.keyboard('{Enter}')
    await expect.poll(() => sent).toEqual([{ name: 'Smith LLP' }])
  })

  it('disables its submit button while the request runs', () => {
    render(<NameForm pending onSubmit={() => {}} />)
    expect(screen.getByRole('button', { name: 'Creating…' })).toBeDisabled()
  })

  it("shows the server's problem as an alert", () => {
    render(<NameForm problem={new Error('That slug is taken.')} onSubmit={() => {}} />)
    expect(screen.getByRole('alert')).toHaveTextContent('That slug is taken.')
  })

  it('ties a multi-line field to its label, the given notice and its error message', async () => {
    const questionSchema = z.object({
      question: z.string().check(z.trim(), z.minLength(1, 'Ask a question.')),
    })
    function QuestionForm() {
      const form = useZodForm(questionSchema, { question: '' })
      return (
        <Form form={form} onSubmit={() => {}}>
          <FormTextarea<z.input<typeof questionSchema>>
            name="question"
            label="Question"
            labelClassName="sr-only"
            aria-describedby="notice"
          />
          <p id="notice">Answers cite their passages.</p>
          <FormSubmit pending={false}>Ask</FormSubmit>
        </Form>
      )
    }
    render(<QuestionForm />)
    const field = screen.getByRole('textbox', { name: 'Question' })
    expect(screen.getByText('Question')).toHaveClass('sr-only')
    expect(field).toHaveAccessibleDescription('Answers cite their passages.')
    await userEvent.click(screen.getByRole('button', { name: 'Ask' }))
    expect(await screen.findByText('Ask a question.')).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription('Answers cite their passages. Ask a question.')
  })
})

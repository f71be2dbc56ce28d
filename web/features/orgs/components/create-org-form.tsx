import { useWatch } from 'react-hook-form'
import * as z from 'zod/mini'
import { Form, FormField, FormSubmit } from '../../../components/form/form'
import { useZodForm } from '../../../components/form/use-zod-form'
import { useCreateOrg } from '../hooks/use-create-org'

const createOrgSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Give the organization a name.')),
})

/** Name field and Create button; the slug is derived from the name and previewed. */
export function CreateOrgForm({ onCreated }: { onCreated?: (orgId: string) => void }) {
  const form = useZodForm(createOrgSchema, { name: '' })
  const name = useWatch({ control: form.control, name: 'name' })
  const createOrg = useCreateOrg({ onCreated })

  return (
    <Form form={form} onSubmit={({ name }) => createOrg.mutate(name)} className="space-y-2">
      {/* The button lines up with the input: below the label (14 px) and its 4 px gap. */}
      <div className="flex items-start gap-2">
        <FormField<z.input<typeof createOrgSchema>>
          name="name"
          label="Organization name"
          className="grow"
          placeholder="Smith & Partners LLP"
          hint="You will be its owner."
          required
          autoComplete="organization"
        />
        <FormSubmit
          pending={createOrg.isPending}
          pendingLabel="Creating…"
          disabled={!name.trim()}
          className="mt-[18px]"
        >
          Create
        </FormSubmit>
      </div>
    </Form>
  )
}

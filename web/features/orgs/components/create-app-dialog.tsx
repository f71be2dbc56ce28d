import { useState } from 'react'
import { useWatch } from 'react-hook-form'
import * as z from 'zod/mini'
import { PlusIcon } from 'lucide-react'
import { Form, FormField, FormSubmit } from '../../../components/form/form'
import { useZodForm } from '../../../components/form/use-zod-form'
import { Button } from '../../../components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog'
import { useCreateApp } from '../hooks/use-create-app'

const SLUG_PATTERN = '[a-z0-9]+(-[a-z0-9]+)*'

const createAppSchema = z.object({
  slug: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Give the app a slug.'),
      z.regex(new RegExp(`^${SLUG_PATTERN}$`), 'Lower-case letters, digits and dashes only.'),
    ),
})

/** '+' button opening a dialog that creates an app (by slug) in the current organisation. */
export function CreateAppDialog({ disabled }: { disabled?: boolean }) {
  const [open, setOpen] = useState(false)
  const form = useZodForm(createAppSchema, { slug: '' })
  const slug = useWatch({ control: form.control, name: 'slug' })
  const createApp = useCreateApp({
    onCreated: () => {
      setOpen(false)
      form.reset()
    },
  })

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-9"
          aria-label="New app"
          title="New app"
          disabled={disabled}
        >
          <PlusIcon aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent>
        <Form form={form} onSubmit={({ slug }) => createApp.mutate(slug)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>New app</DialogTitle>
            <DialogDescription>
              Apps partition an organization&apos;s data, e.g. one per client or practice area.
            </DialogDescription>
          </DialogHeader>
          <FormField<z.input<typeof createAppSchema>>
            name="slug"
            label="Slug"
            className="gap-2"
            normalize={(value) => value.toLowerCase()}
            placeholder="litigation"
            pattern={SLUG_PATTERN}
            hint="Lower-case letters, digits and dashes."
            required
            autoComplete="off"
          />
          <DialogFooter>
            <FormSubmit
              pending={createApp.isPending}
              pendingLabel="Creating…"
              disabled={!slug.trim()}
            >
              Create app
            </FormSubmit>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  )
}

import * as z from 'zod/mini'
import { Form, FormField, FormSubmit } from '../../../components/form/form'
import { useZodForm } from '../../../components/form/use-zod-form'
import { Dialog, DialogContent } from '../../../components/ui/dialog'
import { DialogLayout } from '../../../components/dialog-layout'

/** Longest title the server keeps (DocumentTitle: 300 characters). */
const MAX_TITLE = 300

/** The title, trimmed: blank or unchanged, the dialog saves nothing and closes. */
const renameSchema = z.object({ title: z.string().check(z.trim()) })
type RenameValues = z.input<typeof renameSchema>

interface RenameDocumentDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The current title, selected in the field when the dialog opens. */
  title: string
  /** Saves `title`; resolves to whether it was saved (the dialog closes then). */
  onRename: (title: string) => Promise<boolean>
  pending: boolean
}

/**
 * 'Rename document' dialog: one field holding the current title (selected, so typing replaces
 * it); Enter saves, Escape cancels. An unchanged or blank title saves nothing.
 */
export function RenameDocumentDialog({
  open,
  onOpenChange,
  title,
  onRename,
  pending,
}: RenameDocumentDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        {/* Mounted per opening, so the field starts from the current title each time. */}
        {open && (
          <RenameForm
            title={title}
            pending={pending}
            onCancel={() => onOpenChange(false)}
            onRename={onRename}
            onDone={() => onOpenChange(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

function RenameForm(props: {
  title: string
  pending: boolean
  onCancel: () => void
  onRename: (title: string) => Promise<boolean>
  onDone: () => void
}) {
  const form = useZodForm(renameSchema, { title: props.title })
  const blank = form.watch('title').trim() === ''
  const submit = async ({ title }: z.output<typeof renameSchema>) => {
    if (title === '' || title === props.title) return props.onCancel()
    if (await props.onRename(title)) props.onDone()
  }
  return (
    <Form form={form} onSubmit={submit} className="grid gap-4">
      <DialogLayout
        title="Rename document"
        description="The new title shows in the library and on the document."
        action={
          <FormSubmit pending={props.pending} pendingLabel="Saving…" disabled={blank}>
            Save
          </FormSubmit>
        }
      >
        <FormField<RenameValues>
          name="title"
          label="Title"
          onFocus={(e) => e.currentTarget.select()}
          maxLength={MAX_TITLE}
          required
          autoComplete="off"
          className="grid gap-2"
        />
      </DialogLayout>
    </Form>
  )
}

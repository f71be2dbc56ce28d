import { ClipboardPaste } from 'lucide-react'
import { useId } from 'react'
import * as z from 'zod/mini'
import { Form, FormField, FormSubmit } from '../../../components/form/form'
import { useZodForm } from '../../../components/form/use-zod-form'
import { Label } from '../../../components/ui/label'
import { Textarea } from '../../../components/ui/textarea'

/** The server's limit on pasted text (server/features/documents/schemas.ts MAX_PASTED_CHARACTERS). */
export const MAX_PASTED_CHARACTERS = 1_000_000

/**
 * The fields as typed: an empty text is refused by usePasteDocument with the spec's toast, and a
 * blank title is derived there from the text's first line.
 */
const pasteSchema = z.object({ title: z.string(), content: z.string() })
type PasteValues = z.input<typeof pasteSchema>

interface PasteDocumentFormProps {
  /** Stores the text; resolves true when stored, so the form clears. */
  onAdd: (input: { title: string; content: string }) => Promise<boolean>
  isAdding: boolean
}

/** Title and text fields for adding a document by pasting its text. */
export function PasteDocumentForm({ onAdd, isAdding }: PasteDocumentFormProps) {
  const form = useZodForm(pasteSchema, { title: '', content: '' })
  const contentId = useId()
  const limitId = useId()
  return (
    <Form
      form={form}
      className="flex flex-col gap-3"
      onSubmit={async (values) => {
        if (await onAdd(values)) form.reset()
      }}
    >
      <FormField<PasteValues>
        name="title"
        label="Title"
        placeholder="e.g. Acme mutual NDA"
        className="gap-1.5"
      />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={contentId}>Document text</Label>
        <Textarea
          id={contentId}
          rows={8}
          placeholder="Paste the document text here…"
          aria-describedby={limitId}
          {...form.register('content')}
        />
        <p id={limitId} className="text-sm text-muted-foreground">
          Up to {MAX_PASTED_CHARACTERS.toLocaleString('en-US')} characters; upload longer documents
          as a file.
        </p>
      </div>
      <FormSubmit
        pending={isAdding}
        pendingLabel={
          <>
            <ClipboardPaste aria-hidden="true" />
            Adding…
          </>
        }
        className="self-start"
      >
        <ClipboardPaste aria-hidden="true" />
        Add pasted text
      </FormSubmit>
    </Form>
  )
}

import { ClipboardPaste } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { Textarea } from '../../components/ui/textarea'

/** The server's limit on pasted text (server/features/documents/schemas.ts MAX_PASTED_CHARACTERS). */
export const MAX_PASTED_CHARACTERS = 1_000_000

interface PasteDocumentFormProps {
  /** Stores the text; resolves true when stored, so the form clears. */
  onAdd: (input: { title: string; content: string }) => Promise<boolean>
  isAdding: boolean
}

/** Title and text fields for adding a document by pasting its text. */
export function PasteDocumentForm({ onAdd, isAdding }: PasteDocumentFormProps) {
  const [title, setTitle] = useState('')
  const [content, setContent] = useState('')
  const titleId = useId()
  const contentId = useId()
  const limitId = useId()
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={async (event) => {
        event.preventDefault()
        if (await onAdd({ title, content })) {
          setTitle('')
          setContent('')
        }
      }}
    >
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={titleId}>Title</Label>
        <Input
          id={titleId}
          value={title}
          placeholder="e.g. Acme mutual NDA"
          onChange={(event) => setTitle(event.target.value)}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={contentId}>Document text</Label>
        <Textarea
          id={contentId}
          value={content}
          rows={8}
          placeholder="Paste the document text here…"
          aria-describedby={limitId}
          onChange={(event) => setContent(event.target.value)}
        />
        <p id={limitId} className="text-sm text-muted-foreground">
          Up to {MAX_PASTED_CHARACTERS.toLocaleString('en-US')} characters; upload longer documents
          as a file.
        </p>
      </div>
      <Button type="submit" disabled={isAdding} className="self-start">
        <ClipboardPaste aria-hidden="true" />
        {isAdding ? 'Adding…' : 'Add pasted text'}
      </Button>
    </form>
  )
}

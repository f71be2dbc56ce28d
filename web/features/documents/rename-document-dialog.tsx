import { useId, useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/button'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'

/** Longest title the server keeps (DocumentTitle: 300 characters). */
const MAX_TITLE = 300

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
  const [value, setValue] = useState(props.title)
  const inputId = useId()
  const next = value.trim()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (next === '' || next === props.title) return props.onCancel()
    if (await props.onRename(next)) props.onDone()
  }
  return (
    <form onSubmit={submit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Rename document</DialogTitle>
        <DialogDescription>
          The new title shows in the library and on the document.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor={inputId}>Title</Label>
        <Input
          id={inputId}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onFocus={(e) => e.currentTarget.select()}
          maxLength={MAX_TITLE}
          required
          autoComplete="off"
        />
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={next === '' || props.pending}>
          {props.pending ? 'Saving…' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}

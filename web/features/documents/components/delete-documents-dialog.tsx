import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent } from '../../../components/ui/dialog'
import { DialogLayout } from '../../../components/dialog-layout'
import { documentCount } from '../hooks/use-document-actions'

interface DeleteDocumentsDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Titles of the documents to delete (one names it; more are counted). */
  titles: string[]
  /** Deletes them; the dialog closes once it settles (a refusal is told by a toast). */
  onConfirm: () => Promise<unknown>
  pending: boolean
}

/**
 * The confirmation before deleting documents: what goes (the text, analyses and original file)
 * and that it cannot be undone. Cancel comes first, so it takes the focus on opening (Radix
 * focuses the first focusable element) and Enter right after opening deletes
 * nothing; Escape cancels.
 */
export function DeleteDocumentsDialog({
  open,
  onOpenChange,
  titles,
  onConfirm,
  pending,
}: DeleteDocumentsDialogProps) {
  const heading =
    titles.length === 1 ? `Delete “${titles[0]}”?` : `Delete ${documentCount(titles.length)}?`
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogLayout
          title={heading}
          titleClassName="leading-snug break-words"
          description={
            <>
              {titles.length === 1 ? 'Its' : 'Their'} text, analyses and original file are deleted.
              This cannot be undone.
            </>
          }
          action={
            <Button
              type="button"
              variant="destructive"
              disabled={pending}
              onClick={async () => {
                await onConfirm()
                onOpenChange(false)
              }}
            >
              {pending ? 'Deleting…' : 'Delete'}
            </Button>
          }
        />
      </DialogContent>
    </Dialog>
  )
}

import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../../components/ui/button'
import { DeleteDocumentsDialog } from './delete-documents-dialog'
import type { DocumentCard } from '../api/types'
import { useDocumentActions } from '../hooks/use-document-actions'

interface BulkActionsBarProps {
  orgId: string
  /** The cards on screen. */
  shown: DocumentCard[]
  /** The ticked cards among them. */
  checked: DocumentCard[]
  onCheckAll: (checked: boolean) => void
  onDeleted: (ids: string[]) => void
}

/**
 * The library's bulk row: a 'Select all' tick box over the cards shown, how many are ticked, and
 * 'Delete selected', which confirms and deletes them in one request (all or none: a member's
 * selection holding a colleague's document is refused whole, with the server's reason).
 */
export function BulkActionsBar({
  orgId,
  shown,
  checked,
  onCheckAll,
  onDeleted,
}: BulkActionsBarProps) {
  const [confirming, setConfirming] = useState(false)
  const actions = useDocumentActions(orgId, onDeleted)
  const all = checked.length === shown.length
  return (
    <div className="flex min-h-9 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={all}
          ref={(box) => {
            if (box) box.indeterminate = checked.length > 0 && !all
          }}
          onChange={(e) => onCheckAll(e.target.checked)}
          className="size-4 accent-primary"
        />
        Select all
      </label>
      {checked.length > 0 && (
        <>
          <span className="text-muted-foreground" aria-live="polite">
            {checked.length} selected
          </span>
          <Button
            size="sm"
            variant="destructive"
            className="ml-auto"
            onClick={() => setConfirming(true)}
          >
            <Trash2 aria-hidden="true" />
            Delete selected
          </Button>
          <DeleteDocumentsDialog
            open={confirming}
            onOpenChange={setConfirming}
            titles={checked.map((doc) => doc.title)}
            onConfirm={() => actions.remove(checked.map((doc) => doc.id))}
            pending={actions.isDeleting}
          />
        </>
      )}
    </div>
  )
}

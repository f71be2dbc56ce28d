import { MessageSquareText, Pencil, Trash2, type LucideIcon } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '../../../components/ui/button'
import { useOrgScopeIfAny } from '../../../lib/org-scope'
import { cn } from '../../../lib/utils'
import { DeleteDocumentsDialog } from './delete-documents-dialog'
import { RenameDocumentDialog } from './rename-document-dialog'
import { useDocumentActions } from '../hooks/use-document-actions'

/** Which of a document's dialogs is open. */
export type DocumentDialog = 'rename' | 'delete' | null

/**
 * The row's buttons that open a dialog, each named '<verb> <title>', with the key that does the
 * same (`aria-keyshortcuts`, shown in its tooltip; `dialogForKey` reads them too).
 */
const DIALOG_BUTTONS: readonly {
  dialog: Exclude<DocumentDialog, null>
  verb: string
  shortcut: string
  title: string
  Icon: LucideIcon
  className?: string
}[] = [
  { dialog: 'rename', verb: 'Rename', shortcut: 'F2', title: 'Rename (F2)', Icon: Pencil },
  {
    dialog: 'delete',
    verb: 'Delete',
    shortcut: 'Delete',
    title: 'Delete (Del)',
    Icon: Trash2,
    className: 'hover:text-destructive',
  },
]

interface DocumentActionsProps {
  orgId: string
  document: { id: string; title: string }
  dialog: DocumentDialog
  onDialogChange: (dialog: DocumentDialog) => void
  /** Runs once the document is deleted. */
  onDeleted?: () => void
  className?: string
}

/**
 * A document's Rename and Delete buttons (named after the document, with their keys F2 and
 * Delete where the caller wires them) and the dialogs they open. The server decides who may:
 * a member's write to someone else's document is refused with a toast giving its reason.
 */
export function DocumentActions({
  orgId,
  document,
  dialog,
  onDialogChange,
  onDeleted,
  className,
}: DocumentActionsProps) {
  const actions = useDocumentActions(orgId, onDeleted)
  const urlScope = useOrgScopeIfAny()
  const closeUnless = (name: DocumentDialog) => (open: boolean) =>
    onDialogChange(open ? name : null)
  return (
    <div className={cn('flex shrink-0 items-center', className)}>
      {urlScope && (
        <Button asChild variant="ghost" size="icon" className="size-8">
          <Link
            to={`/dashboard/${urlScope.orgSlug}?ask=${encodeURIComponent(document.id)}`}
            aria-label="Ask about this document"
            title="Ask about this document"
          >
            <MessageSquareText aria-hidden="true" />
          </Link>
        </Button>
      )}
      {DIALOG_BUTTONS.map(({ dialog: opens, verb, shortcut, title, Icon, className }) => (
        <Button
          key={opens}
          variant="ghost"
          size="icon"
          className={cn('size-8', className)}
          aria-label={`${verb} ${document.title}`}
          aria-keyshortcuts={shortcut}
          title={title}
          onClick={() => onDialogChange(opens)}
        >
          <Icon aria-hidden="true" />
        </Button>
      ))}
      <RenameDocumentDialog
        open={dialog === 'rename'}
        onOpenChange={closeUnless('rename')}
        title={document.title}
        onRename={(title) => actions.rename(document.id, title)}
        pending={actions.isRenaming}
      />
      <DeleteDocumentsDialog
        open={dialog === 'delete'}
        onOpenChange={closeUnless('delete')}
        titles={[document.title]}
        onConfirm={() => actions.remove([document.id])}
        pending={actions.isDeleting}
      />
    </div>
  )
}

/** The dialog a key opens on a focused document (F2 renames, Delete deletes), or null. */
export function dialogForKey(key: string): DocumentDialog {
  return DIALOG_BUTTONS.find((button) => button.shortcut === key)?.dialog ?? null
}

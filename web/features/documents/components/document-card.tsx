import { useState, type KeyboardEvent } from 'react'
import { Badge } from '../../../components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card'
import { cn } from '../../../lib/utils'
import { DocumentActions, dialogForKey, type DocumentDialog } from './document-actions'
import { documentTypeLabel } from '../document-types'
import { formatDate } from '../format-date'
import type { DocumentCard as DocumentCardData } from '../api/types'

/** Preview length the API cuts at (spec: 150 characters). */
const PREVIEW_LENGTH = 150

interface DocumentCardProps {
  orgId: string
  document: DocumentCardData
  selected: boolean
  onOpen: (documentId: string) => void
  /** Whether the card is ticked for a bulk action. */
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  /** Runs once the document is deleted from this card. */
  onDeleted: (documentId: string) => void
}

/**
 * A library card: a tick box for bulk actions, the title (the button that opens it, cut to two
 * lines with the full title on hover), type, date, 150-character preview, and Rename and Delete;
 * with the focus on the card, F2 renames and Delete deletes.
 */
export function DocumentCard({
  orgId,
  document,
  selected,
  onOpen,
  checked,
  onCheckedChange,
  onDeleted,
}: DocumentCardProps) {
  const [dialog, setDialog] = useState<DocumentDialog>(null)
  const preview =
    document.textStatus === 'empty'
      ? 'No text found (scanned PDF?)'
      : document.preview.length >= PREVIEW_LENGTH
        ? `${document.preview}…`
        : document.preview
  const onKeyDown = (event: KeyboardEvent) => {
    // Keys typed in the card's dialogs bubble here through React's portal; they are not the card's.
    if (!event.currentTarget.contains(event.target as Node)) return
    const next = dialogForKey(event.key)
    if (next === null) return
    event.preventDefault()
    setDialog(next)
  }
  return (
    <Card
      onKeyDown={onKeyDown}
      className={cn(
        'relative transition-colors focus-within:ring-2 focus-within:ring-ring hover:bg-accent/50',
        (selected || checked) && 'border-primary bg-accent/50',
      )}
    >
      <CardHeader className="flex-row items-start gap-2 p-4 pb-2">
        <input
          type="checkbox"
          aria-label={`Select ${document.title}`}
          checked={checked}
          onChange={(e) => onCheckedChange(e.target.checked)}
          className="relative z-10 mt-1 size-4 shrink-0 accent-primary"
        />
        <CardTitle level={3} className="min-w-0 flex-1 break-words">
          {/* The ::after overlay stretches the button over the whole card, so the card is clickable. */}
          <button
            type="button"
            aria-current={selected ? 'true' : undefined}
            onClick={() => onOpen(document.id)}
            title={document.title}
            className="line-clamp-2 text-left outline-none after:absolute after:inset-0 after:content-['']"
          >
            {document.title}
          </button>
        </CardTitle>
        <Badge variant="outline" className="shrink-0">
          {documentTypeLabel(document.documentType)}
        </Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-1 p-4 pt-0">
        <p
          className={cn(
            'line-clamp-3 text-sm break-words text-muted-foreground',
            document.textStatus === 'empty' && 'italic',
          )}
        >
          {preview}
        </p>
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs text-muted-foreground">{formatDate(document.createdAt)}</p>
          <DocumentActions
            orgId={orgId}
            document={document}
            dialog={dialog}
            onDialogChange={setDialog}
            onDeleted={() => onDeleted(document.id)}
            className="relative z-10 -my-1 -mr-2"
          />
        </div>
      </CardContent>
    </Card>
  )
}

import { Badge } from '../../components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card'
import { cn } from '../../lib/utils'
import { documentTypeLabel } from './document-types'
import { formatDate } from './format-date'
import type { DocumentCard as DocumentCardData } from './types'

/** Preview length the API cuts at (spec: 150 characters). */
const PREVIEW_LENGTH = 150

interface DocumentCardProps {
  document: DocumentCardData
  selected: boolean
  onOpen: (documentId: string) => void
}

/** A library card: title (the button that opens it), type, date and 150-character preview. */
export function DocumentCard({ document, selected, onOpen }: DocumentCardProps) {
  const preview =
    document.textStatus === 'empty'
      ? 'No text found (scanned PDF?)'
      : document.preview.length >= PREVIEW_LENGTH
        ? `${document.preview}…`
        : document.preview
  return (
    <Card
      className={cn(
        'relative transition-colors focus-within:ring-2 focus-within:ring-ring hover:bg-accent/50',
        selected && 'border-primary bg-accent/50',
      )}
    >
      <CardHeader className="flex-row items-start justify-between gap-2 p-4 pb-2">
        <CardTitle className="min-w-0 break-words">
          {/* The ::after overlay stretches the button over the whole card, so the card is clickable. */}
          <button
            type="button"
            aria-current={selected ? 'true' : undefined}
            onClick={() => onOpen(document.id)}
            className="text-left outline-none after:absolute after:inset-0 after:content-['']"
          >
            {document.title}
          </button>
        </CardTitle>
        <Badge variant="outline">{documentTypeLabel(document.documentType)}</Badge>
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
        <p className="text-xs text-muted-foreground">{formatDate(document.createdAt)}</p>
      </CardContent>
    </Card>
  )
}

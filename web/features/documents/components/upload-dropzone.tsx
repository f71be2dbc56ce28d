import { FileUp } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { Button } from '../../../components/ui/button'
import { Progress } from '../../../components/ui/progress'
import { cn } from '../../../lib/utils'
import type { DocumentDetail } from '../api/types'
import type { UploadItem } from '../hooks/use-upload-document'
import { ACCEPTED_UPLOAD_TYPES } from '../upload-rules'

interface UploadDropzoneProps {
  /** Every file chosen or dropped at once, in order. */
  onFiles: (files: File[]) => void
  /** The queue's files: waiting, uploading, added or failed. */
  items: readonly UploadItem[]
  /** Opens an added document. */
  onOpen: (document: DocumentDetail) => void
  /** Clears the files that have ended from the list. */
  onClearFinished: () => void
}

const STATUS: Record<UploadItem['status'], string> = {
  queued: 'Waiting',
  uploading: 'Uploading',
  added: 'Added',
  failed: 'Failed',
}

/**
 * Drop area and 'Choose files' button for PDF, DOCX or .txt files (several at once), and the list
 * of the files sent: each with its progress while it uploads and its outcome (added, with Open,
 * or why it failed).
 */
export function UploadDropzone({ onFiles, items, onOpen, onClearFinished }: UploadDropzoneProps) {
  const inputRef = useRef<HTMLInputElement>(null)
  const [dragging, setDragging] = useState(false)
  const hintId = useId()
  const finished = items.some((item) => item.status === 'added' || item.status === 'failed')
  return (
    <div className="flex flex-col gap-2">
      <div
        data-testid="upload-dropzone"
        data-dragging={dragging || undefined}
        className={cn(
          'flex flex-col items-center gap-2 rounded-md border-2 border-dashed p-4 text-center text-sm transition-colors',
          dragging && 'border-primary bg-accent',
        )}
        onDragOver={(event) => {
          event.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault()
          setDragging(false)
          const files = [...event.dataTransfer.files]
          if (files.length > 0) onFiles(files)
        }}
      >
        <FileUp className="size-6 text-muted-foreground" aria-hidden="true" />
        <p id={hintId} className="text-muted-foreground">
          Drag and drop PDF, DOCX or .txt files (up to 25 MB each) here, or
        </p>
        <input
          ref={inputRef}
          type="file"
          multiple
          aria-label="Upload a document"
          accept={ACCEPTED_UPLOAD_TYPES}
          className="hidden"
          tabIndex={-1}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])]
            // Clear so choosing the same files again still fires a change.
            event.target.value = ''
            if (files.length > 0) onFiles(files)
          }}
        />
        <Button
          variant="outline"
          size="sm"
          aria-describedby={hintId}
          onClick={() => inputRef.current?.click()}
        >
          Choose files
        </Button>
      </div>
      {items.length > 0 && (
        <>
          <ul aria-label="Uploads" aria-live="polite" className="flex flex-col gap-2 text-xs">
            {items.map((item) => (
              <li key={item.key} className="flex flex-col gap-1 rounded-md border p-2">
                <div className="flex items-center justify-between gap-2">
                  <span className="min-w-0 truncate font-medium" title={item.fileName}>
                    {item.fileName}
                  </span>
                  <span
                    className={cn(
                      'shrink-0',
                      item.status === 'failed' ? 'text-destructive' : 'text-muted-foreground',
                    )}
                  >
                    {STATUS[item.status]}
                    {item.status === 'uploading' && ` ${item.percent}%`}
                  </span>
                </div>
                {item.status === 'uploading' && (
                  <Progress value={item.percent} aria-label={`Uploading ${item.fileName}`} />
                )}
                {item.status === 'failed' && <p className="text-destructive">{item.error}</p>}
                {item.status === 'added' && item.document && (
                  <Button
                    variant="link"
                    size="sm"
                    className="h-auto self-start p-0 text-xs"
                    onClick={() => item.document && onOpen(item.document)}
                  >
                    Open {item.document.title}
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {finished && (
            <Button variant="ghost" size="sm" className="self-end" onClick={onClearFinished}>
              Clear finished
            </Button>
          )}
        </>
      )}
    </div>
  )
}

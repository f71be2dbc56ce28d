import { FileUp } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { Button } from '../../components/ui/button'
import { Progress } from '../../components/ui/progress'
import { cn } from '../../lib/utils'
import type { UploadProgress } from './use-upload-document'
import { ACCEPTED_UPLOAD_TYPES } from './upload-rules'

interface UploadDropzoneProps {
  onFile: (file: File) => void
  /** The upload in flight, or null. */
  progress: UploadProgress | null
}

/** Drop area and 'Choose file' button for a PDF, DOCX or .txt file, with the upload's progress. */
export function UploadDropzone({ onFile, progress }: UploadDropzoneProps) {
  const inputRef = useRef<HTMLInputElement>(null)
  const [dragging, setDragging] = useState(false)
  const hintId = useId()
  const busy = progress !== null
  return (
    <div
      data-testid="upload-dropzone"
      data-dragging={dragging || undefined}
      className={cn(
        'flex flex-col items-center gap-2 rounded-md border-2 border-dashed p-4 text-center text-sm transition-colors',
        dragging && 'border-primary bg-accent',
      )}
      onDragOver={(event) => {
        event.preventDefault()
        if (!busy) setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault()
        setDragging(false)
        const file = event.dataTransfer.files[0]
        if (file && !busy) onFile(file)
      }}
    >
      <FileUp className="size-6 text-muted-foreground" aria-hidden="true" />
      <p id={hintId} className="text-muted-foreground">
        Drag and drop a PDF, DOCX or .txt file (up to 25 MB) here, or
      </p>
      <input
        ref={inputRef}
        type="file"
        aria-label="Upload a document"
        accept={ACCEPTED_UPLOAD_TYPES}
        className="hidden"
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0]
          // Clear so choosing the same file again still fires a change.
          event.target.value = ''
          if (file) onFile(file)
        }}
      />
      <Button
        variant="outline"
        size="sm"
        disabled={busy}
        aria-describedby={hintId}
        onClick={() => inputRef.current?.click()}
      >
        Choose file
      </Button>
      {progress && (
        <div className="flex w-full flex-col gap-1">
          <Progress value={progress.percent} aria-label={`Uploading ${progress.fileName}`} />
          <p className="text-xs text-muted-foreground" aria-live="polite">
            Uploading {progress.fileName}… {progress.percent}%
          </p>
        </div>
      )}
    </div>
  )
}

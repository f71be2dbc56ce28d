import { ScanText } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import { JobProgress } from '../../../components/job-progress'
import { isActive, type Job } from '../../../hooks/jobs'

interface DocumentOcrStatusProps {
  /** The scan's latest OCR job, or null when it was never read. */
  job: Job | null
  /** Whether OCR has read the pages already (and found nothing): no point in reading again. */
  read: boolean
  onStart: () => void
  starting: boolean
  startError: string | null
  onCancel: () => void
}

/**
 * The OCR of a scanned PDF without text: its progress page by page with Cancel while it runs,
 * its failure, and "Read text (OCR)" when it is not running (never read, failed or cancelled).
 */
export function DocumentOcrStatus({
  job,
  read,
  onStart,
  starting,
  startError,
  onCancel,
}: DocumentOcrStatusProps) {
  const active = job !== null && isActive(job)
  return (
    <div className="flex flex-col gap-2 rounded-md border p-3">
      {job && <JobProgress job={job} label="Reading the scan (OCR)" onCancel={onCancel} />}
      {!active && !read && (
        <div>
          <Button type="button" variant="outline" size="sm" onClick={onStart} disabled={starting}>
            <ScanText aria-hidden="true" />
            Read text (OCR)
          </Button>
        </div>
      )}
      {startError && (
        <p role="alert" className="text-sm text-destructive">
          {startError}
        </p>
      )}
    </div>
  )
}

import { Button } from './ui/button'
import { Progress } from './ui/progress'
import type { Job } from '../hooks/jobs'

interface JobProgressProps {
  job: Job | undefined
  /** What the job does, for the accessible name, e.g. "Analysis". */
  label: string
  /** Shown while the job is active; omit to hide the Cancel button. */
  onCancel?: () => void
}

const STATUS_TEXT: Record<Job['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

/**
 * A background job's state: queued (waiting for a free worker), running with a progress bar and
 * the job's message, failed with its message, or done.
 */
export function JobProgress({ job, label, onCancel }: JobProgressProps) {
  const status = job?.status ?? 'queued'
  const percent = job && status === 'running' ? Math.round(job.progress * 100) : null
  const active = status === 'queued' || status === 'running'
  return (
    <div className="flex flex-col gap-2" role="status" aria-live="polite">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span>
          <span className="font-medium">{STATUS_TEXT[status]}</span>
          {status === 'queued' && ' · waiting for a free worker'}
          {status === 'running' && job?.message ? ` · ${job.message}` : ''}
          {percent !== null && ` · ${percent}%`}
        </span>
        {active && onCancel && (
          <Button type="button" variant="outline" size="sm" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
      {active && <Progress aria-label={`${label} progress`} value={percent} />}
      {status === 'failed' && job?.error && <p className="text-sm text-destructive">{job.error}</p>}
    </div>
  )
}

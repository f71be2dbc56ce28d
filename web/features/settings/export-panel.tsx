import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../components/ui/button'
import { JobProgress } from '../../components/job-progress'
import { cancelJob, latestJobQuery, useJob, type Job, type JobKind } from '../../lib/jobs'
import { exportArchiveUrl, startExport } from './api'

/** The kind of the export's background job. */
const EXPORT_JOB_KIND: JobKind = 'tenant-export'

/** Starts the browser's download of `url` (the server answers it as an attachment). */
function download(url: string) {
  const link = document.createElement('a')
  link.href = url
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
}

/**
 * The Export panel: optionally with passage embeddings, starts the organisation's export job,
 * shows its progress (found again after a reload while it runs) with Cancel, and when it ends
 * downloads the archive and toasts 'Export downloaded' (the spec's message), or the failure.
 */
export function ExportPanel({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient()
  const [withEmbeddings, setWithEmbeddings] = useState(false)
  const [busy, setBusy] = useState(false)
  // undefined: show an export already running when the page opens; null: show none.
  const [chosenJobId, setJobId] = useState<string | null>()
  const runningQuery = latestJobQuery(orgId, { kind: EXPORT_JOB_KIND, active: true })
  const running = useQuery({ ...runningQuery, refetchOnMount: 'always' })
  const jobId = chosenJobId === undefined ? running.data?.id : (chosenJobId ?? undefined)
  const job = useJob(orgId, jobId, (ended: Job) => {
    queryClient.setQueryData(runningQuery.queryKey, null)
    if (ended.status === 'succeeded') {
      download(exportArchiveUrl(orgId, ended.id))
      toast.success('Export downloaded')
      setJobId(null)
    } else if (ended.status === 'failed') {
      toast.error(ended.error ?? 'The export failed.')
    } else if (ended.status === 'cancelled') {
      setJobId(null)
      toast('Export cancelled')
    }
  })
  async function start() {
    setBusy(true)
    try {
      setJobId((await startExport(orgId, withEmbeddings)).id)
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The export failed.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-labelledby="export-heading" className="flex flex-col gap-3 rounded-lg border p-4">
      <h2 id="export-heading" className="text-lg font-semibold">
        Export
      </h2>
      <p className="text-muted-foreground text-sm">
        Everything the organization holds, in one ZIP archive: settings, members, documents,
        analyses, entities, conversations, events, recordings, buckets and the audit log.
      </p>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={withEmbeddings}
          onChange={(event) => setWithEmbeddings(event.target.checked)}
        />
        Include passage embeddings
      </label>
      <div>
        <Button type="button" onClick={() => void start()} disabled={busy || Boolean(jobId)}>
          <Download aria-hidden="true" />
          Export
        </Button>
      </div>
      {jobId && (
        <JobProgress
          job={job}
          label="Export"
          onCancel={() =>
            void cancelJob(orgId, jobId).catch((error: unknown) =>
              toast.error('Could not cancel', {
                description: error instanceof Error ? error.message : undefined,
              }),
            )
          }
        />
      )}
    </section>
  )
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { PageHeader } from '../../components/page-header'
import { Button } from '../../components/ui/button'
import { Progress } from '../../components/ui/progress'
import { cancelJob, type Job, type JobKind } from '../../hooks/jobs'
import { TablePlaceholderRow } from '../../components/table-placeholder-row'
import { useOrgScope } from '../../lib/org-scope'
import { useLiveRefresh } from '../../hooks/realtime'
import { refreshAfterWrite } from '../../lib/refresh-after-write'
import { runningJobsKey, runningJobsQuery } from './api'

const KIND_LABELS: Record<JobKind, string> = {
  analysis: 'Analysis',
  transcription: 'Transcription',
  'document-passages': 'Indexing',
  'entities-import': 'Entities import',
  ocr: 'Text recognition (OCR)',
  'tenant-export': 'Organization export',
  'tenant-import': 'Organization import',
  'tenant-clone': 'Organization clone',
}

/** /dashboard/:orgSlug/jobs: the background work of the URL's organisation. */
export function JobsPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Jobs"
        description="Background work running for the current organization: text recognition, indexing, analyses and transcriptions."
      />
      <JobsTable key={scope.orgId} orgId={scope.orgId} />
    </>
  )
}

/**
 * The queued and running jobs: kind, the document (or recording) each works on, its percentage
 * with a bar and its message, and Cancel (the server lets a job's creator or an admin cancel and
 * answers others with a 403, shown as a toast). Kept current by the jobs rows' live changes, so
 * percentages move and ended jobs leave without polling.
 */
function JobsTable({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient()
  const list = useQuery(runningJobsQuery(orgId))
  useLiveRefresh(orgId, ['public.jobs'], runningJobsKey(orgId))
  const cancel = useMutation({
    mutationFn: (jobId: string) => cancelJob(orgId, jobId),
    onSuccess: () => refreshAfterWrite(queryClient, runningJobsKey(orgId)),
    onError: (error) => toast.error(error.message),
  })
  const titles = new Map(list.data?.subjects.map((s) => [s.id, s.title]))
  const items = list.data?.items ?? []
  return (
    <div className="flex flex-col gap-4">
      {list.isError && (
        <p role="alert" className="text-sm text-destructive">
          {list.error.message}
        </p>
      )}
      <div className="relative overflow-x-auto rounded-md border">
        <table className="w-full text-sm" aria-label="Running jobs">
          <thead className="border-b bg-muted/50 text-left">
            <tr>
              <th className="px-2 py-2 font-medium">Kind</th>
              <th className="px-2 py-2 font-medium">Document</th>
              <th className="px-2 py-2 font-medium">Progress</th>
              <th className="px-2 py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <TablePlaceholderRow
              colSpan={4}
              status={list.status}
              rows={items.length}
              empty="No jobs running."
            />
            {items.map((job) => {
              const subject = (job.subjectId && titles.get(job.subjectId)) ?? '—'
              return (
                <tr key={job.id} className="border-b align-top last:border-0">
                  <td className="px-2 py-2">{KIND_LABELS[job.kind]}</td>
                  <td className="max-w-64 px-2 py-2 break-words">{subject}</td>
                  <td className="min-w-40 px-2 py-2">
                    <JobPercent job={job} label={`${KIND_LABELS[job.kind]} of ${subject}`} />
                  </td>
                  <td className="px-2 py-2 text-right">
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      disabled={cancel.isPending && cancel.variables === job.id}
                      aria-label={`Cancel ${KIND_LABELS[job.kind]} of ${subject}`}
                      onClick={() => cancel.mutate(job.id)}
                    >
                      Cancel
                    </Button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </div>
  )
}

/** A job's percentage (floored: 100% only once done) with its bar and message; queued waits. */
function JobPercent({ job, label }: { job: Job; label: string }) {
  if (job.status === 'queued')
    return <span className="text-muted-foreground">Queued · waiting for a free worker</span>
  const percent = Math.floor(job.progress * 100)
  return (
    <div className="flex flex-col gap-1">
      <span>
        <span className="tabular-nums">{percent}%</span>
        {job.message && <span className="text-muted-foreground"> · {job.message}</span>}
      </span>
      <Progress aria-label={`${label} progress`} value={percent} />
    </div>
  )
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ColumnDef } from '@tanstack/react-table'
import { toast } from 'sonner'
import { DataTable } from '../../components/data-table/data-table'
import { PageHeader } from '../../components/page-header'
import { Button } from '../../components/ui/button'
import { Progress } from '../../components/ui/progress'
import { cancelJob, type Job, type JobKind } from '../../hooks/jobs'
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
  'review-fill': 'Review fill',
  comparison: 'Comparison',
  retention: 'Retention run',
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
  const subjectOf = (job: Job) => (job.subjectId && titles.get(job.subjectId)) ?? '—'
  // Built each render (the React Compiler memoises): the cells read this render's titles and
  // the cancel mutation's state.
  const columns: ColumnDef<Job>[] = [
    {
      header: 'Kind',
      id: 'kind',
      meta: { cellClassName: 'py-2' },
      cell: ({ row }) => KIND_LABELS[row.original.kind],
    },
    {
      header: 'Document',
      id: 'document',
      meta: { cellClassName: 'max-w-64 py-2 break-words' },
      cell: ({ row }) => subjectOf(row.original),
    },
    {
      header: 'Progress',
      id: 'progress',
      meta: { cellClassName: 'min-w-40 py-2' },
      cell: ({ row }) => (
        <JobPercent
          job={row.original}
          label={`${KIND_LABELS[row.original.kind]} of ${subjectOf(row.original)}`}
        />
      ),
    },
    {
      header: () => <span className="sr-only">Actions</span>,
      id: 'actions',
      meta: { cellClassName: 'py-2 text-right' },
      cell: ({ row }) => (
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={cancel.isPending && cancel.variables === row.original.id}
          aria-label={`Cancel ${KIND_LABELS[row.original.kind]} of ${subjectOf(row.original)}`}
          onClick={() => cancel.mutate(row.original.id)}
        >
          Cancel
        </Button>
      ),
    },
  ]
  return (
    <div className="flex flex-col gap-4">
      <DataTable
        columns={columns}
        data={list.data?.items}
        status={list.status}
        error={list.error}
        empty="No jobs running."
        label="Running jobs"
        getRowId={(job) => job.id}
        rowClassName="align-top"
      />
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

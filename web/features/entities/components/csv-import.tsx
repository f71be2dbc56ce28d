import { useRef, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Upload } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../../components/ui/button'
import { JobProgress } from '../../../components/job-progress'
import { cancelJob, latestJobQuery, useJob, type Job, type JobKind } from '../../../hooks/jobs'
import type { OrgScope } from '../../../lib/org-scope'
import { ApiError } from '../../../lib/api'
import { importEntities } from '../api/entities-api'

/** The spec's alert for a file without rows (the server's message for it too). */
const NO_ROWS = 'No rows'
/** The kind of the import's background job. */
const IMPORT_JOB_KIND: JobKind = 'entities-import'

/**
 * 'Import CSV': picks a file, uploads it and follows the import job with a progress bar; the
 * job imports every row or none. A file without rows (empty, or only a header) alerts 'No rows';
 * the end toasts 'Imported n', the job's message (with the line of the first bad row), or that
 * the import was cancelled. An import still running when the page opens (after a reload, or
 * started by someone else in the organisation) shows its progress too.
 */
export function CsvImport({ scope, onImported }: { scope: OrgScope; onImported: () => void }) {
  const input = useRef<HTMLInputElement>(null)
  const queryClient = useQueryClient()
  // undefined: nothing chosen yet, so an import already under way into this scope when the page
  // opens is shown (an app's imports on its page; every import on the organisation's);
  // null: nothing shown, after an import ended.
  const [chosenJobId, setJobId] = useState<string | null>()
  const runningQuery = latestJobQuery(scope.orgId, {
    kind: IMPORT_JOB_KIND,
    subjectId: scope.appId ?? undefined,
    active: true,
  })
  const running = useQuery({ ...runningQuery, refetchOnMount: 'always' })
  const jobId = chosenJobId === undefined ? running.data?.id : (chosenJobId ?? undefined)
  const job = useJob(scope.orgId, jobId, (ended: Job) => {
    // Ended: the page opened again later must not find it as running from the cache.
    queryClient.setQueryData(runningQuery.queryKey, null)
    if (ended.status === 'succeeded') {
      const count = ended.kind === 'entities-import' ? (ended.result?.imported ?? 0) : 0
      toast.success(`Imported ${count} ${count === 1 ? 'entity' : 'entities'}`)
      setJobId(null)
      onImported()
    } else if (ended.status === 'failed' && ended.errorCode === 'empty_csv') {
      // A file of only a header or blank lines: the same alert as an empty file.
      setJobId(null)
      window.alert(NO_ROWS)
    } else if (ended.status === 'failed') {
      toast.error(ended.error ?? 'The import failed.')
    } else if (ended.status === 'cancelled') {
      setJobId(null)
      toast('Import cancelled: nothing was imported')
    }
  })
  async function upload(file: File) {
    if (file.size === 0) {
      window.alert(NO_ROWS)
      return
    }
    try {
      setJobId((await importEntities(scope.orgId, file, scope.appId)).id)
    } catch (error) {
      if (error instanceof ApiError && error.code === 'empty_csv') window.alert(NO_ROWS)
      else toast.error(error instanceof Error ? error.message : 'The import failed.')
    }
  }
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        aria-label="CSV file to import"
        className="hidden"
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ''
          if (file) void upload(file)
        }}
      />
      <Button type="button" variant="outline" onClick={() => input.current?.click()}>
        <Upload aria-hidden="true" />
        Import CSV
      </Button>
      {jobId && (
        <div className="basis-full">
          <JobProgress
            job={job}
            label="Import"
            onCancel={() =>
              void cancelJob(scope.orgId, jobId).catch((error: unknown) =>
                toast.error('Could not cancel', {
                  description: error instanceof Error ? error.message : undefined,
                }),
              )
            }
          />
        </div>
      )}
    </>
  )
}

import { useState } from 'react'
import { Download } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../../components/ui/button'
import { JobProgress } from '../../../components/job-progress'
import type { JobKind } from '../../../hooks/jobs'
import { exportArchiveUrl, startExport } from '../api/settings-api'
import { useTenantJob } from '../hooks/use-tenant-job'
import { CheckboxField } from './checkbox-field'
import { DataPanel } from './data-panel'

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
  const [withEmbeddings, setWithEmbeddings] = useState(false)
  const { jobId, job, busy, start, cancel } = useTenantJob(
    orgId,
    EXPORT_JOB_KIND,
    'Export',
    (ended) => {
      download(exportArchiveUrl(orgId, ended.id))
      toast.success('Export downloaded')
    },
  )
  return (
    <DataPanel
      title="Export"
      description="Everything the organization holds, in one ZIP archive: settings, members, documents, analyses, entities, conversations, events, recordings, buckets and the audit log."
    >
      <CheckboxField
        label="Include passage embeddings"
        checked={withEmbeddings}
        onChange={setWithEmbeddings}
      />
      <div>
        <Button
          type="button"
          onClick={() => void start(() => startExport(orgId, withEmbeddings))}
          disabled={busy}
        >
          <Download aria-hidden="true" />
          Export
        </Button>
      </div>
      {jobId && <JobProgress job={job} label="Export" onCancel={cancel} />}
    </DataPanel>
  )
}

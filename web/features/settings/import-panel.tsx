import { useId, useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { Upload } from 'lucide-react'
import { toast } from 'sonner'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { Progress } from '../../components/ui/progress'
import { JobProgress } from '../../components/job-progress'
import type { Job } from '../../hooks/jobs'
import { orgPath } from '../../lib/org-path'
import { startImport, type ImportTarget } from './api'
import { SubmitRow } from './submit-row'
import { useTenantJob } from './use-tenant-job'
import { CheckboxField } from './checkbox-field'
import { DataPanel } from './data-panel'

/** An organisation the user owns: a possible target of the import. */
export interface OwnedOrg {
  id: string
  name: string
  slug: string
}

type ImportJob = Extract<Job, { kind: 'tenant-import' }>
type ImportResult = NonNullable<ImportJob['result']>

/** The form's refusal before anything is sent: spec section 5's messages, else a name is missing. */
function refusal(file: File | null, target: ImportTarget | null): string | null {
  if (!file) return 'Select a ZIP file'
  if (!target) return 'Provide target_org_id or enable create new org'
  if ('orgName' in target && !target.orgName) return 'Name the new organization'
  return null
}

/**
 * The Import panel: a ZIP archive, and either a new organisation (its name) or one the user owns
 * as the target; validates as the spec says ('Select a ZIP file', 'Provide target_org_id or
 * enable create new org'), uploads with progress, follows the import job (found again after a
 * reload) with Cancel, and when it ends shows 'Import completed' with the rows per table and a
 * link to the organisation.
 */
export function ImportPanel({ orgId, ownedOrgs }: { orgId: string; ownedOrgs: OwnedOrg[] }) {
  const ids = useId()
  const queryClient = useQueryClient()
  const [file, setFile] = useState<File | null>(null)
  const [createNew, setCreateNew] = useState(true)
  const [orgName, setOrgName] = useState('')
  const [targetOrgId, setTargetOrgId] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<number | null>(null)
  const [completed, setCompleted] = useState<ImportResult | null>(null)
  const { jobId, job, underWay, follow, cancel } = useTenantJob(
    orgId,
    'tenant-import',
    'Import',
    (ended) => {
      if (ended.kind !== 'tenant-import' || !ended.result) return
      setCompleted(ended.result)
      toast.success('Import completed')
      // The new organisation joins the user's list (the switcher, this page's targets).
      void queryClient.invalidateQueries({ queryKey: ['orgs'] })
    },
  )
  const busy = sent !== null || underWay
  const target: ImportTarget | null = createNew
    ? { orgName: orgName.trim() }
    : targetOrgId
      ? { targetOrgId }
      : null

  async function submit(event: FormEvent) {
    event.preventDefault()
    const refused = refusal(file, target)
    setError(refused)
    if (refused || !file || !target) return
    setCompleted(null)
    setSent(0)
    try {
      follow((await startImport(orgId, file, target, setSent)).id)
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : 'The import failed.')
    } finally {
      setSent(null)
    }
  }

  const imported = completed ? ownedOrgs.find((org) => org.id === completed.orgId) : undefined
  return (
    <DataPanel
      title="Import"
      description={<>An archive exported from Lexdesk, into a new organization or one you own.</>}
    >
      <form
        noValidate
        aria-busy={busy}
        aria-label="Import"
        onSubmit={(event) => void submit(event)}
        className="flex flex-col gap-3"
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${ids}-file`}>ZIP archive</Label>
          <Input
            id={`${ids}-file`}
            type="file"
            accept=".zip,application/zip"
            disabled={busy}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </div>
        <CheckboxField
          label="Create a new organization"
          checked={createNew}
          disabled={busy}
          onChange={setCreateNew}
        />
        {createNew ? (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-name`}>New organization name</Label>
            <Input
              id={`${ids}-name`}
              value={orgName}
              maxLength={200}
              disabled={busy}
              onChange={(event) => setOrgName(event.target.value)}
            />
          </div>
        ) : (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-target`}>Target organization</Label>
            <select
              id={`${ids}-target`}
              value={targetOrgId}
              disabled={busy}
              onChange={(event) => setTargetOrgId(event.target.value)}
              className="h-9 rounded-md border border-input bg-background px-2 text-sm disabled:opacity-50"
            >
              <option value="" disabled>
                Choose an organization you own
              </option>
              {ownedOrgs.map((org) => (
                <option key={org.id} value={org.id}>
                  {org.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <SubmitRow
          error={error}
          busy={busy}
          icon={<Upload aria-hidden="true" />}
          label="Import"
          busyLabel="Importing…"
        />
      </form>
      {sent !== null && (
        <Progress aria-label="Archive upload progress" value={Math.round(sent * 100)} />
      )}
      {jobId && <JobProgress job={job} label="Import" onCancel={cancel} />}
      {completed && (
        <div role="status" className="flex flex-col gap-2 text-sm">
          <p className="font-medium">Import completed</p>
          <table aria-label="Rows imported per table" className="w-fit">
            <tbody>
              {Object.entries(completed.counts)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([table, count]) => (
                  <tr key={table}>
                    <th scope="row" className="pr-4 text-left font-normal">
                      {table.replaceAll('_', ' ')}
                    </th>
                    <td className="text-right tabular-nums">{count}</td>
                  </tr>
                ))}
            </tbody>
          </table>
          {imported && (
            <Link className="underline" to={orgPath({ orgSlug: imported.slug })}>
              Open {imported.name}
            </Link>
          )}
        </div>
      )}
    </DataPanel>
  )
}

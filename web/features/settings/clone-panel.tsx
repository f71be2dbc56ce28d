import { useId, useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { Copy } from 'lucide-react'
import { toast } from 'sonner'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { JobProgress } from '../../components/job-progress'
import type { Job } from '../../hooks/jobs'
import { orgPath } from '../../lib/org-path'
import { startClone } from './api'
import { SubmitRow } from './submit-row'
import { useTenantJob } from './use-tenant-job'
import { CheckboxField } from './checkbox-field'
import { DataPanel } from './data-panel'

type CloneResult = NonNullable<Extract<Job, { kind: 'tenant-clone' }>['result']>

/**
 * The Clone panel: copies the organisation the page shows (`orgName`) into a new one named here,
 * with or without its storage buckets; busy while the clone job runs (its progress shown, found
 * again after a reload, with Cancel), then 'Clone completed' with a link to the new organisation.
 */
export function ClonePanel({ orgId, orgName }: { orgId: string; orgName: string | undefined }) {
  const ids = useId()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [cloneBuckets, setCloneBuckets] = useState(true)
  const [starting, setStarting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [completed, setCompleted] = useState<{ name: string; result: CloneResult } | null>(null)
  const { jobId, job, underWay, follow, cancel } = useTenantJob(
    orgId,
    'tenant-clone',
    'Clone',
    (ended) => {
      if (ended.kind !== 'tenant-clone' || !ended.result) return
      setCompleted({ name: name.trim(), result: ended.result })
      toast.success('Clone completed')
      void queryClient.invalidateQueries({ queryKey: ['orgs'] })
    },
  )
  const busy = starting || underWay

  async function submit(event: FormEvent) {
    event.preventDefault()
    const target = name.trim()
    setError(target ? null : 'Name the new organization')
    if (!target) return
    setCompleted(null)
    setStarting(true)
    try {
      follow((await startClone(orgId, target, cloneBuckets)).id)
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : 'The clone failed.')
    } finally {
      setStarting(false)
    }
  }

  return (
    <DataPanel
      title="Clone"
      description={
        <>
          A copy of {orgName ?? 'this organization'} as a new organization you own, with its
          members, documents, analyses, entities, conversations, events and recordings.
        </>
      }
    >
      <form
        noValidate
        aria-busy={busy}
        aria-label="Clone"
        onSubmit={(event) => void submit(event)}
        className="flex flex-col gap-3"
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${ids}-name`}>Name of the copy</Label>
          <Input
            id={`${ids}-name`}
            value={name}
            maxLength={200}
            disabled={busy}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <CheckboxField
          label="Clone storage buckets and their objects"
          checked={cloneBuckets}
          disabled={busy}
          onChange={setCloneBuckets}
        />
        <SubmitRow
          error={error}
          busy={busy}
          icon={<Copy aria-hidden="true" />}
          label="Clone"
          busyLabel="Cloning…"
        />
      </form>
      {jobId && <JobProgress job={job} label="Clone" onCancel={cancel} />}
      {completed && (
        <p role="status" className="text-sm">
          <span className="font-medium">Clone completed</span>{' '}
          <Link className="underline" to={orgPath({ orgSlug: completed.result.slug })}>
            Open {completed.name || 'the copy'}
          </Link>
        </p>
      )}
    </DataPanel>
  )
}

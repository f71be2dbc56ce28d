import { useId, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { Copy } from 'lucide-react'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import { useZodForm } from '../../../components/form/use-zod-form'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { JobProgress } from '../../../components/job-progress'
import type { Job } from '../../../hooks/jobs'
import { orgPath } from '../../../lib/org-path'
import { startClone } from '../api/settings-api'
import { DataForm } from './data-form'
import { useTenantJob } from '../hooks/use-tenant-job'
import { CheckboxField } from './checkbox-field'
import { DataPanel } from './data-panel'

type CloneResult = NonNullable<Extract<Job, { kind: 'tenant-clone' }>['result']>

/** The clone's form: the copy's name, trimmed, is required. */
const cloneSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Name the new organization')),
  cloneBuckets: z.boolean(),
})

/**
 * The Clone panel: copies the organisation the page shows (`orgName`) into a new one named here,
 * with or without its storage buckets; busy while the clone job runs (its progress shown, found
 * again after a reload, with Cancel), then 'Clone completed' with a link to the new organisation.
 */
export function ClonePanel({ orgId, orgName }: { orgId: string; orgName: string | undefined }) {
  const ids = useId()
  const queryClient = useQueryClient()
  const form = useZodForm(cloneSchema, { name: '', cloneBuckets: true })
  const [completed, setCompleted] = useState<{ name: string; result: CloneResult } | null>(null)
  const { jobId, job, busy, start, cancel } = useTenantJob(
    orgId,
    'tenant-clone',
    'Clone',
    (ended) => {
      if (ended.kind !== 'tenant-clone' || !ended.result) return
      setCompleted({ name: form.getValues('name').trim(), result: ended.result })
      toast.success('Clone completed')
      void queryClient.invalidateQueries({ queryKey: ['orgs'] })
    },
  )

  const error = form.formState.errors.name?.message ?? null
  const errorId = `${ids}-error`

  async function submit({ name, cloneBuckets }: z.output<typeof cloneSchema>) {
    setCompleted(null)
    await start(() => startClone(orgId, name, cloneBuckets))
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
      <DataForm
        form={form}
        label="Clone"
        onSubmit={(values) => void submit(values)}
        error={error}
        errorId={errorId}
        busy={busy}
        icon={<Copy aria-hidden="true" />}
        busyLabel="Cloning…"
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${ids}-name`}>Name of the copy</Label>
          <Input
            id={`${ids}-name`}
            maxLength={200}
            disabled={busy}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            {...form.register('name')}
          />
        </div>
        <CheckboxField
          label="Clone storage buckets and their objects"
          checked={form.watch('cloneBuckets')}
          disabled={busy}
          onChange={(checked) => form.setValue('cloneBuckets', checked)}
        />
      </DataForm>
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

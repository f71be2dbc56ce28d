import { useId, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { Upload } from 'lucide-react'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import type { ColumnDef } from '@tanstack/react-table'
import type { PathValue } from 'react-hook-form'
import { DataTable } from '../../../components/data-table/data-table'
import { useZodForm } from '../../../components/form/use-zod-form'
import { LabelledSelect } from '../../../components/labelled-select'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { Progress } from '../../../components/ui/progress'
import { JobProgress } from '../../../components/job-progress'
import type { Job } from '../../../hooks/jobs'
import { orgPath } from '../../../lib/org-path'
import { startImport, type ImportTarget } from '../api/settings-api'
import { DataForm } from './data-form'
import { useTenantJob } from '../hooks/use-tenant-job'
import { CheckboxField } from './checkbox-field'
import { DataPanel } from './data-panel'

/** An organisation the user owns: a possible target of the import. */
export interface OwnedOrg {
  id: string
  name: string
  slug: string
}

/** The rows the import wrote into one table. */
interface TableCount {
  table: string
  rows: number
}

/** The import's counts: each table (named in words) heads its row. */
const COUNT_COLUMNS: ColumnDef<TableCount>[] = [
  {
    header: 'Table',
    id: 'table',
    cell: ({ row }) => row.original.table.replaceAll('_', ' '),
    meta: { rowHeader: true },
  },
  {
    header: 'Rows',
    accessorKey: 'rows',
    meta: { cellClassName: 'text-right tabular-nums', headerClassName: 'text-right' },
  },
]

type ImportJob = Extract<Job, { kind: 'tenant-import' }>
type ImportResult = NonNullable<ImportJob['result']>

/**
 * The form, checked before anything is sent with spec section 5's messages, one at a time in this
 * order: a missing archive, a missing target, then a new organisation without a name.
 */
const importSchema = z
  .object({
    file: z.nullable(z.file()),
    createNew: z.boolean(),
    orgName: z.string(),
    targetOrgId: z.string(),
  })
  .check(
    z.superRefine((values, context) => {
      const refused: [keyof typeof values, string] | null = !values.file
        ? ['file', 'Select a ZIP file']
        : values.createNew
          ? values.orgName.trim()
            ? null
            : ['orgName', 'Name the new organization']
          : values.targetOrgId
            ? null
            : ['targetOrgId', 'Provide target_org_id or enable create new org']
      if (refused)
        context.issues.push({
          code: 'custom',
          path: [refused[0]],
          message: refused[1],
          input: values,
        })
    }),
  )
type ImportValues = z.input<typeof importSchema>

/** Where the checked form imports into. */
const targetOf = (values: ImportValues): ImportTarget =>
  values.createNew ? { orgName: values.orgName.trim() } : { targetOrgId: values.targetOrgId }

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
  const form = useZodForm(importSchema, {
    file: null,
    createNew: true,
    orgName: '',
    targetOrgId: '',
  })
  const [sent, setSent] = useState<number | null>(null)
  const [completed, setCompleted] = useState<ImportResult | null>(null)
  const { jobId, job, busy, start, cancel } = useTenantJob(
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
  const { errors, isSubmitted } = form.formState
  // One refusal at a time (the schema's order), said as an alert tied to the field it is about.
  const refused = errors.file
    ? 'file'
    : errors.orgName
      ? 'orgName'
      : errors.targetOrgId
        ? 'targetOrgId'
        : null
  const error = refused ? (errors[refused]?.message ?? null) : null
  const errorId = `${ids}-error`
  const invalid = (field: typeof refused) =>
    refused === field ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}
  const createNew = form.watch('createNew')
  // A choice changes which refusal comes first: once submitted, the whole form is checked again.
  const choose = <Field extends 'file' | 'createNew' | 'targetOrgId'>(
    field: Field,
    value: PathValue<ImportValues, Field>,
  ) => {
    form.setValue(field, value)
    if (isSubmitted) void form.trigger()
  }

  async function submit(values: ImportValues) {
    if (!values.file) return
    setCompleted(null)
    const file = values.file
    setSent(0)
    await start(() => startImport(orgId, file, targetOf(values), setSent))
    setSent(null)
  }

  const imported = completed ? ownedOrgs.find((org) => org.id === completed.orgId) : undefined
  return (
    <DataPanel
      title="Import"
      description={<>An archive exported from Lexdesk, into a new organization or one you own.</>}
    >
      <DataForm
        form={form}
        label="Import"
        onSubmit={(values) => void submit(values)}
        error={error}
        errorId={errorId}
        busy={busy}
        icon={<Upload aria-hidden="true" />}
        busyLabel="Importing…"
      >
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${ids}-file`}>ZIP archive</Label>
          <Input
            id={`${ids}-file`}
            type="file"
            accept=".zip,application/zip"
            disabled={busy}
            {...invalid('file')}
            onChange={(event) => choose('file', event.target.files?.[0] ?? null)}
          />
        </div>
        <CheckboxField
          label="Create a new organization"
          checked={createNew}
          disabled={busy}
          onChange={(checked) => choose('createNew', checked)}
        />
        {createNew ? (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${ids}-name`}>New organization name</Label>
            <Input
              id={`${ids}-name`}
              maxLength={200}
              disabled={busy}
              {...invalid('orgName')}
              {...form.register('orgName')}
            />
          </div>
        ) : (
          <LabelledSelect
            label="Target organization"
            className="gap-1.5"
            value={form.watch('targetOrgId')}
            onValueChange={(value) => choose('targetOrgId', value)}
            placeholder="Choose an organization you own"
            placeholderDisabled
            disabled={busy}
            {...invalid('targetOrgId')}
            options={ownedOrgs.map((org) => ({ value: org.id, label: org.name }))}
          />
        )}
      </DataForm>
      {sent !== null && (
        <Progress aria-label="Archive upload progress" value={Math.round(sent * 100)} />
      )}
      {jobId && <JobProgress job={job} label="Import" onCancel={cancel} />}
      {completed && (
        <div role="status" className="flex flex-col gap-2 text-sm">
          <p className="font-medium">Import completed</p>
          <DataTable
            label="Rows imported per table"
            columns={COUNT_COLUMNS}
            data={Object.entries(completed.counts)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([table, rows]) => ({ table, rows }))}
            status="success"
            empty="No rows imported."
            getRowId={(count) => count.table}
            containerClassName="w-fit"
          />
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

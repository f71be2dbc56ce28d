import { useId, useState, type ChangeEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { LinkIcon, PlusIcon, RefreshCwIcon, Trash2Icon, UploadIcon } from 'lucide-react'
import { toast } from 'sonner'
import type { ColumnDef } from '@tanstack/react-table'
import * as z from 'zod/mini'
import { DataTable } from '../../components/data-table/data-table'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { LabelledSelect } from '../../components/labelled-select'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { Progress } from '../../components/ui/progress'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import { useDebouncedValue } from '../../lib/use-debounced-value'
import { useLiveRefresh } from '../../hooks/realtime'
import {
  bucketsQuery,
  createBucket,
  deleteBucket,
  deleteObject,
  objectsQuery,
  signObjectUrl,
  uploadObject,
  type StorageObject,
} from './storage-api'

const kilobytes = new Intl.NumberFormat(undefined, {
  style: 'unit',
  unit: 'kilobyte',
  maximumFractionDigits: 1,
})

/** The tables whose changes refresh the panel (server/realtime/realtime-tables.ts). */
const LIVE_TABLES = ['public.storage_buckets', 'public.storage_objects']

/** The suggested name of a new bucket (spec: the organisation id plus -private or -public). */
export function suggestedBucketName(orgId: string): string {
  const base = orgId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 55)
  return `${base}-private`
}

/**
 * The Buckets panel of the storage screen (spec sections 2 and 7 "Storage"): a bucket picker,
 * '+ Bucket' (a name, public when it ends in -public or when ticked), a prefix field, Upload of
 * several files with a progress bar (same names are overwritten), Refresh, and the bucket's
 * objects by name, 100 a page, each with 'Signed URL' (an hour, copied to the clipboard) and
 * Delete (confirmed). The system bucket voice-recordings is read-only: no upload, no delete.
 */
export function BucketsPanel() {
  const { orgId } = useOrgScope()
  // Creating and deleting buckets is for owners and admins (the server answers a member 403).
  const manages = managesOrganisation(useOrgRole())
  const queryClient = useQueryClient()
  const ids = { bucket: useId(), prefix: useId(), files: useId() }
  const [bucketId, setBucketId] = useState('')
  const [prefix, setPrefix] = useState('')
  const [cursors, setCursors] = useState<(string | null)[]>([null])
  const [creating, setCreating] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  const buckets = useQuery(bucketsQuery(orgId))
  // A colleague's bucket or upload appears without a reload (decision 0052).
  useLiveRefresh(orgId, LIVE_TABLES, ['orgs', orgId, 'buckets'])
  const cursor = cursors.at(-1) ?? null
  const readOnly = buckets.data?.items.find((bucket) => bucket.id === bucketId)?.readOnly ?? false
  // Typing a prefix asks the server once the typing pauses, not at every key.
  const listedPrefix = useDebouncedValue(prefix, 300)
  const objects = useQuery({
    ...objectsQuery(orgId, bucketId, listedPrefix, cursor),
    enabled: bucketId !== '',
  })
  const refreshObjects = () =>
    queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'buckets', bucketId] })
  const pick = (id: string) => {
    setBucketId(id)
    setCursors([null])
  }

  const removeBucket = useMutation({
    mutationFn: () => deleteBucket(orgId, bucketId),
    onSuccess: async () => {
      toast.success('Bucket deleted')
      pick('')
      await queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'buckets'] })
    },
    onError: (error) => toast.error(error.message),
  })
  const removeObject = useMutation({
    mutationFn: (objectId: string) => deleteObject(orgId, objectId),
    onSuccess: async () => {
      toast.success('Deleted')
      await refreshObjects()
    },
    onError: (error) => toast.error(error.message),
  })
  const sign = useMutation({
    mutationFn: (objectId: string) => signObjectUrl(orgId, objectId),
    onSuccess: ({ url }) =>
      navigator.clipboard.writeText(url).then(
        () => toast.success('Signed URL copied'),
        () => toast.message(url),
      ),
    onError: (error) => toast.error(error.message),
  })

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target
    const files = [...(input.files ?? [])]
    input.value = ''
    if (files.length === 0) return
    if (!bucketId) {
      toast.error('Pick a bucket first')
      return
    }
    if (readOnly) {
      toast.error('This bucket is read-only: recordings are made on the voice screen')
      return
    }
    const total = files.reduce((sum, file) => sum + file.size, 0) || 1
    let sent = 0
    try {
      setProgress(0)
      for (const file of files) {
        await uploadObject(orgId, bucketId, file, prefix, (fraction) =>
          setProgress(((sent + fraction * file.size) / total) * 100),
        )
        sent += file.size
      }
      toast.success('Uploaded')
    } catch (error) {
      toast.error((error as Error).message)
    } finally {
      setProgress(null)
      await refreshObjects()
    }
  }

  return (
    <Card role="region" aria-label="Buckets">
      <CardHeader>
        <CardTitle>Buckets</CardTitle>
        <CardDescription>Files of this organization, in buckets.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-wrap items-end gap-2">
          <LabelledSelect
            id={ids.bucket}
            label="Bucket"
            value={bucketId}
            onValueChange={pick}
            placeholder="Pick a bucket"
            selectClassName="px-3"
            options={
              buckets.data?.items.map((bucket) => ({
                value: bucket.id,
                label: `${bucket.name}${bucket.public ? ' (public)' : ''}${bucket.readOnly ? ' (read-only)' : ''}`,
              })) ?? []
            }
          />
          {manages && (
            <Button type="button" variant="outline" onClick={() => setCreating((on) => !on)}>
              <PlusIcon aria-hidden="true" />
              Bucket
            </Button>
          )}
          {manages && bucketId && !readOnly && (
            <Button
              type="button"
              variant="outline"
              disabled={removeBucket.isPending}
              onClick={() => {
                if (window.confirm('Delete this bucket and every file in it?'))
                  removeBucket.mutate()
              }}
            >
              <Trash2Icon aria-hidden="true" />
              Delete bucket
            </Button>
          )}
        </div>
        {buckets.isError && (
          <p role="alert" className="text-sm text-destructive">
            The buckets could not be loaded: {buckets.error.message}
          </p>
        )}
        {!manages && (
          <p className="text-sm text-muted-foreground">
            Owners and admins create and delete buckets.
          </p>
        )}
        {manages && creating && (
          <NewBucketForm
            orgId={orgId}
            onCreated={async (id) => {
              setCreating(false)
              await queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'buckets'] })
              pick(id)
            }}
          />
        )}
        <div className="flex flex-wrap items-end gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.prefix}>Prefix</Label>
            <Input
              id={ids.prefix}
              placeholder="folder/"
              value={prefix}
              onChange={(event) => {
                setPrefix(event.target.value)
                setCursors([null])
              }}
            />
          </div>
          <Button
            type="button"
            disabled={progress !== null}
            onClick={() => {
              // Say what is missing before the file chooser opens, not after files are picked.
              if (!bucketId) toast.error('Pick a bucket first')
              else if (readOnly)
                toast.error('This bucket is read-only: recordings are made on the voice screen')
              else document.getElementById(ids.files)?.click()
            }}
          >
            <UploadIcon aria-hidden="true" />
            {progress !== null ? 'Uploading…' : 'Upload'}
          </Button>
          <input
            id={ids.files}
            type="file"
            multiple
            aria-label="Files to upload"
            className="sr-only"
            onChange={(event) => void upload(event)}
          />
          <Button type="button" variant="outline" onClick={() => void refreshObjects()}>
            <RefreshCwIcon aria-hidden="true" />
            Refresh
          </Button>
        </div>
        {progress !== null && <Progress value={progress} aria-label="Upload progress" />}
        {bucketId === '' ? (
          <p className="text-sm text-muted-foreground">Pick a bucket to see its files.</p>
        ) : (
          <DataTable
            label="Files"
            columns={objectColumns(
              (id) => sign.mutate(id),
              readOnly
                ? undefined
                : (id) => {
                    if (window.confirm('Delete this file?')) removeObject.mutate(id)
                  },
            )}
            data={objects.data?.items}
            status={objects.status}
            error={objects.error}
            failurePrefix="The files could not be loaded: "
            placeholder="sentence"
            empty="No files here yet."
            getRowId={(object) => object.id}
          />
        )}
        {bucketId !== '' && (cursors.length > 1 || objects.data?.nextCursor) && (
          <div className="flex gap-2">
            <Button
              type="button"
              variant="outline"
              disabled={cursors.length === 1}
              onClick={() => setCursors((stack) => stack.slice(0, -1))}
            >
              Previous page
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={!objects.data?.nextCursor}
              onClick={() => {
                const next = objects.data?.nextCursor
                if (next) setCursors((stack) => [...stack, next])
              }}
            >
              Next page
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  )
}

const newBucketSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Give the bucket a name.')),
  isPublic: z.boolean(),
})

/** '+ Bucket': a name (suggested from the organisation) and a public flag. */
function NewBucketForm({
  orgId,
  onCreated,
}: {
  orgId: string
  onCreated: (bucketId: string) => Promise<void>
}) {
  const publicId = useId()
  const form = useZodForm(newBucketSchema, { name: suggestedBucketName(orgId), isPublic: false })
  const create = useMutation({
    mutationFn: ({ name, isPublic }: z.output<typeof newBucketSchema>) =>
      createBucket(orgId, name, isPublic || name.endsWith('-public')),
    onSuccess: async (bucket) => {
      toast.success('Bucket created')
      await onCreated(bucket.id)
    },
    onError: (error) => toast.error(error.message),
  })
  return (
    <Form
      form={form}
      onSubmit={(values) => create.mutate(values)}
      aria-label="New bucket"
      className="flex flex-wrap items-end gap-2"
    >
      <FormField<z.input<typeof newBucketSchema>> name="name" label="Bucket name" />
      <div className="flex items-center gap-2 pb-2">
        <input id={publicId} type="checkbox" {...form.register('isPublic')} />
        <Label htmlFor={publicId}>Public</Label>
      </div>
      <FormSubmit pending={create.isPending}>Create bucket</FormSubmit>
    </Form>
  )
}

/** The objects' columns: name, size, updated time, and their actions (no Delete without `onDelete`). */
const objectColumns = (
  onSign: (objectId: string) => void,
  onDelete: ((objectId: string) => void) | undefined,
): ColumnDef<StorageObject>[] => [
  { header: 'Name', accessorKey: 'name', meta: { cellClassName: 'break-all' } },
  { header: 'Size', id: 'size', cell: ({ row }) => kilobytes.format(row.original.size / 1024) },
  {
    header: 'Updated',
    id: 'updatedAt',
    cell: ({ row }) => new Date(row.original.updatedAt).toLocaleString(),
  },
  {
    header: () => <span className="sr-only">Actions</span>,
    id: 'actions',
    cell: ({ row }) => {
      const object = row.original
      return (
        <div className="flex justify-end gap-1">
          <Button type="button" size="sm" variant="outline" onClick={() => onSign(object.id)}>
            <LinkIcon aria-hidden="true" />
            Signed URL
          </Button>
          {onDelete && (
            <Button
              type="button"
              size="sm"
              variant="outline"
              aria-label={`Delete ${object.name}`}
              onClick={() => onDelete(object.id)}
            >
              <Trash2Icon aria-hidden="true" />
              Delete
            </Button>
          )}
        </div>
      )
    },
  },
]

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import type { ColumnDef } from '@tanstack/react-table'
import { DataTable } from '../../components/data-table/data-table'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { Button } from '../../components/ui/button'
import { ApiError } from '../../lib/api'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import {
  legalHoldsQuery,
  placeLegalHold,
  releaseLegalHold,
  type LegalHold,
} from './legal-holds-api'

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** The reason a hold is placed for: required, at most 500 characters (the server's limit). */
const newHoldSchema = z.object({
  reason: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Say why the data is held.'),
      z.maxLength(500, 'At most 500 characters.'),
    ),
})
type NewHoldValues = z.input<typeof newHoldSchema>
const NO_HOLD: NewHoldValues = { reason: '' }

/** What a hold names, as a person reads it: this app by its slug, else its kind and id. */
const targetOf = (hold: LegalHold, appId: string | null, appSlug: string | null) =>
  hold.targetKind === 'app' && hold.targetId === appId && appSlug
    ? `App ${appSlug}`
    : `${hold.targetKind[0]?.toUpperCase()}${hold.targetKind.slice(1)} ${hold.targetId}`

/** The holds' columns; `onRelease` runs once 'Release this legal hold?' is confirmed. */
const holdColumns = (
  label: (hold: LegalHold) => string,
  onRelease: (hold: LegalHold) => void,
  releasing: boolean,
): ColumnDef<LegalHold>[] => [
  { header: 'Holds', id: 'target', cell: ({ row }) => label(row.original) },
  { header: 'Reason', accessorKey: 'reason' },
  {
    header: 'Placed',
    id: 'createdAt',
    cell: ({ row }) => day.format(new Date(row.original.createdAt)),
  },
  {
    header: () => <span className="sr-only">Actions</span>,
    id: 'actions',
    meta: { cellClassName: 'text-right' },
    cell: ({ row }) => (
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={releasing}
        aria-label={`Release the hold on ${label(row.original)}`}
        onClick={() => {
          if (window.confirm('Release this legal hold?')) onRelease(row.original)
        }}
      >
        Release
      </Button>
    ),
  },
]

/**
 * The legal-holds part of the Security screen (issue 45, decision 0147): the holds that stand,
 * each with Release (after 'Release this legal hold?'), and, with an app chosen, 'Place legal
 * hold' on that app with its reason. Holds on a document, a recording or a member are placed
 * through the API. Owners and admins only; others are told so.
 */
export function LegalHoldsPanel() {
  const scope = useOrgScope()
  const manages = managesOrganisation(useOrgRole())
  const holds = useQuery({ ...legalHoldsQuery(scope.orgId), enabled: manages })
  const queryClient = useQueryClient()
  const form = useZodForm(newHoldSchema, NO_HOLD)
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: legalHoldsQuery(scope.orgId).queryKey })
  const place = useMutation({
    mutationFn: ({ reason }: z.output<typeof newHoldSchema>) =>
      placeLegalHold(scope.orgId, { targetKind: 'app', targetId: scope.appId ?? '', reason }),
    onSuccess: async () => {
      toast.success('Legal hold placed')
      form.reset(NO_HOLD)
      await refresh()
    },
    onError: (error) => toast.error(error.message),
  })
  const release = useMutation({
    mutationFn: (holdId: string) => releaseLegalHold(scope.orgId, holdId),
    onSuccess: async () => {
      toast.success('Released')
      await refresh()
    },
    onError: (error) => toast.error(error.message),
  })
  const label = (hold: LegalHold) => targetOf(hold, scope.appId, scope.appSlug)
  const columns = holdColumns(label, (hold) => release.mutate(hold.id), release.isPending)
  const forbidden =
    !manages || (holds.error instanceof ApiError && holds.error.code === 'forbidden')

  return (
    <section aria-labelledby="legal-holds-title" className="space-y-3">
      <h2 id="legal-holds-title" className="font-serif text-lg font-semibold">
        Legal holds
      </h2>
      <p className="text-sm text-muted-foreground">
        While a hold stands, nothing it names can be deleted, by anyone: an app with its documents,
        recordings and conversations, or a member with what they created.
      </p>
      {forbidden ? (
        <p role="alert" className="text-sm text-destructive">
          Only owners and admins manage legal holds.
        </p>
      ) : (
        <>
          {scope.appId ? (
            <Form
              form={form}
              onSubmit={(values) => place.mutate(values)}
              className="flex flex-wrap items-end gap-2"
            >
              <FormField<NewHoldValues>
                name="reason"
                label={`Reason for holding ${scope.appSlug ?? 'this app'}`}
                placeholder="Preservation order in Smith v. Jones"
                maxLength={500}
                autoComplete="off"
                className="grid min-w-64 flex-1 gap-2"
              />
              <FormSubmit pending={place.isPending} pendingLabel="Placing…">
                Place legal hold
              </FormSubmit>
            </Form>
          ) : (
            <p className="text-sm">Choose an app to place a legal hold on it.</p>
          )}
          <DataTable
            columns={columns}
            data={holds.data?.items}
            status={holds.status}
            error={holds.error}
            loading="Loading legal holds…"
            placeholder="sentence"
            label="Legal holds"
            empty="No legal hold stands."
            getRowId={(hold) => hold.id}
          />
        </>
      )}
    </section>
  )
}

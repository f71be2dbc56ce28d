import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import type { ColumnDef } from '@tanstack/react-table'
import { DataTable } from '../../components/data-table/data-table'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ApiError } from '../../lib/api'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import { apiKeysQuery, revokeApiKey, type ApiKey } from './api-keys-api'
import { CreateApiKeyDialog } from './create-api-key-dialog'

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const when = (at: string | null, none: string) => (at ? day.format(new Date(at)) : none)

/** Whether `key` still works: not revoked, not past its expiry. */
const isActive = (key: ApiKey) =>
  !key.revokedAt && (!key.expiresAt || Date.parse(key.expiresAt) > Date.now())

/** The keys' columns; `onRevoke` runs once 'Revoke this key?' is confirmed. */
const apiKeyColumns = (onRevoke: (key: ApiKey) => void, revoking: boolean): ColumnDef<ApiKey>[] => [
  { header: 'Name', accessorKey: 'name' },
  {
    header: 'Key',
    id: 'prefix',
    meta: { cellClassName: 'font-mono text-xs' },
    cell: ({ row }) => `${row.original.prefix}…`,
  },
  { header: 'Scopes', id: 'scopes', cell: ({ row }) => row.original.scopes.join(', ') },
  { header: 'Created', id: 'createdAt', cell: ({ row }) => when(row.original.createdAt, '') },
  {
    header: 'Last used',
    id: 'lastUsedAt',
    cell: ({ row }) => when(row.original.lastUsedAt, 'Never'),
  },
  { header: 'Expires', id: 'expiresAt', cell: ({ row }) => when(row.original.expiresAt, 'Never') },
  {
    header: () => <span className="sr-only">Actions</span>,
    id: 'actions',
    meta: { cellClassName: 'text-right' },
    cell: ({ row }) => {
      const key = row.original
      return isActive(key) ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={revoking}
          aria-label={`Revoke ${key.name}`}
          onClick={() => {
            if (window.confirm('Revoke this key?')) onRevoke(key)
          }}
        >
          Revoke
        </Button>
      ) : (
        <Badge variant="outline">{key.revokedAt ? 'Revoked' : 'Expired'}</Badge>
      )
    },
  },
]

/**
 * The API-keys part of the Security screen: the organisation's keys (prefix, scopes, dates),
 * creating one (CreateApiKeyDialog) and revoking one after 'Revoke this key?'. Owners and admins
 * only; others are told so.
 */
export function ApiKeysPanel() {
  const scope = useOrgScope()
  // Members are told at once: their screen never asks for the list the server would refuse.
  const manages = managesOrganisation(useOrgRole())
  const keys = useQuery({ ...apiKeysQuery(scope.orgId), enabled: manages })
  const queryClient = useQueryClient()
  const revoke = useMutation({
    mutationFn: (keyId: string) => revokeApiKey(scope.orgId, keyId),
    onSuccess: async () => {
      toast.success('Revoked')
      await queryClient.invalidateQueries({ queryKey: apiKeysQuery(scope.orgId).queryKey })
    },
    onError: (error) => toast.error(error.message),
  })
  const columns = apiKeyColumns((key) => revoke.mutate(key.id), revoke.isPending)
  const forbidden = !manages || (keys.error instanceof ApiError && keys.error.code === 'forbidden')

  return (
    <section aria-labelledby="api-keys-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="api-keys-title" className="font-serif text-lg font-semibold">
          API keys
        </h2>
        {!forbidden && <CreateApiKeyDialog scope={scope} />}
      </div>
      <p className="text-sm text-muted-foreground">
        Programs send a key as <code>Authorization: Bearer &lt;key&gt;</code> or{' '}
        <code>x-api-key</code>. It acts for the person who created it, within its scopes.
      </p>
      {forbidden ? (
        <p role="alert" className="text-sm text-destructive">
          Only owners and admins manage API keys.
        </p>
      ) : (
        <DataTable
          columns={columns}
          data={keys.data?.items}
          status={keys.status}
          error={keys.error}
          loading="Loading API keys…"
          placeholder="sentence"
          label="API keys"
          empty="No API keys yet."
          getRowId={(key) => key.id}
        />
      )}
    </section>
  )
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ApiError } from '../../lib/api'
import { managesOrganization, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import { apiKeysQuery, revokeApiKey, type ApiKey } from './api-keys-api'
import { CreateApiKeyDialog } from './create-api-key-dialog'

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const when = (at: string | null, none: string) => (at ? day.format(new Date(at)) : none)

/** Whether `key` still works: not revoked, not past its expiry. */
const isActive = (key: ApiKey) =>
  !key.revokedAt && (!key.expiresAt || Date.parse(key.expiresAt) > Date.now())

/**
 * The API-keys part of the Security screen: the organisation's keys (prefix, scopes, dates),
 * creating one (CreateApiKeyDialog) and revoking one after 'Revoke this key?'. Owners and admins
 * only; others are told so.
 */
export function ApiKeysPanel() {
  const scope = useOrgScope()
  // Members are told at once: their screen never asks for the list the server would refuse.
  const manages = managesOrganization(useOrgRole())
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
      {(forbidden || keys.isError) && (
        <p role="alert" className="text-sm text-destructive">
          {forbidden ? 'Only owners and admins manage API keys.' : keys.error?.message}
        </p>
      )}
      {manages && keys.isPending && (
        <p className="text-sm text-muted-foreground">Loading API keys…</p>
      )}
      {keys.data?.items.length === 0 && (
        <p className="text-sm text-muted-foreground">No API keys yet.</p>
      )}
      {keys.data && keys.data.items.length > 0 && (
        <div className="relative overflow-x-auto rounded-md border">
          <table className="w-full text-sm">
            <thead className="border-b bg-muted/50 text-left">
              <tr>
                <th className="px-3 py-2 font-medium">Name</th>
                <th className="px-3 py-2 font-medium">Key</th>
                <th className="px-3 py-2 font-medium">Scopes</th>
                <th className="px-3 py-2 font-medium">Created</th>
                <th className="px-3 py-2 font-medium">Last used</th>
                <th className="px-3 py-2 font-medium">Expires</th>
                <th className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.items.map((key) => (
                <tr key={key.id} className="border-b last:border-0">
                  <td className="px-3 py-2">{key.name}</td>
                  <td className="px-3 py-2 font-mono text-xs">{key.prefix}…</td>
                  <td className="px-3 py-2">{key.scopes.join(', ')}</td>
                  <td className="px-3 py-2">{when(key.createdAt, '')}</td>
                  <td className="px-3 py-2">{when(key.lastUsedAt, 'Never')}</td>
                  <td className="px-3 py-2">{when(key.expiresAt, 'Never')}</td>
                  <td className="px-3 py-2 text-right">
                    {isActive(key) ? (
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        disabled={revoke.isPending}
                        aria-label={`Revoke ${key.name}`}
                        onClick={() => {
                          if (window.confirm('Revoke this key?')) revoke.mutate(key.id)
                        }}
                      >
                        Revoke
                      </Button>
                    ) : (
                      <Badge variant="outline">{key.revokedAt ? 'Revoked' : 'Expired'}</Badge>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

import { useId, useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CopyIcon, KeyRoundIcon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { ApiError } from '../../lib/api'
import { managesOrganization, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import {
  decodeTenantToken,
  mintTenantToken,
  revokeTenantToken,
  tenantTokensQuery,
  type MintedTenantToken,
  type TenantToken,
} from './tenant-tokens-api'

/** A local date and time for an instant (ISO text or seconds since the epoch). */
function localTime(at: string | number): string {
  return new Date(typeof at === 'number' ? at * 1000 : at).toLocaleString()
}

/** A token's state as the list shows it, at `now` (ms since the epoch). */
function stateOf(token: TenantToken, now: number): string {
  if (token.revokedAt) return 'Revoked'
  return Date.parse(token.expiresAt) <= now ? 'Expired' : 'Active'
}

/**
 * Security's tenant-token tool (decision 0048): 'Mint a tenant-scoped token' for the current
 * organisation (optional app, lifetime, scopes); the new token shown once with a copy button and
 * decoded (header, claims, expiry in local time); the organisation's tokens with revoke. Admins
 * and owners only: others see why.
 */
export function TenantTokensPanel() {
  const { orgId, appId: currentAppId } = useOrgScope()
  const queryClient = useQueryClient()
  const [appId, setAppId] = useState(currentAppId ?? '')
  const [ttlSeconds, setTtlSeconds] = useState('')
  const [scope, setScope] = useState('read,write')
  const [minted, setMinted] = useState<MintedTenantToken | null>(null)
  const manages = managesOrganization(useOrgRole())
  const tokens = useQuery({ ...tenantTokensQuery(orgId), enabled: manages })
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'tenant-tokens'] })

  const mint = useMutation({
    mutationFn: () => mintTenantToken(orgId, { appId, ttlSeconds, scope }),
    onSuccess: async (answer) => {
      setMinted(answer)
      toast.success('Token minted')
      await refresh()
    },
    onError: (error) => toast.error(error.message),
  })
  const revoke = useMutation({
    mutationFn: (jti: string) => revokeTenantToken(orgId, jti),
    onSuccess: async () => {
      toast.success('Revoked')
      await refresh()
    },
    onError: (error) => toast.error(error.message),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    mint.mutate()
  }
  const copy = async (token: string) => {
    await navigator.clipboard.writeText(token).then(
      () => toast.success('Copied'),
      () => toast.error('Copying failed: select the token and copy it by hand'),
    )
  }
  const forbidden = !manages || (tokens.error instanceof ApiError && tokens.error.status === 403)

  return (
    <Card>
      <CardHeader>
        <CardTitle>Tenant tokens</CardTitle>
        <CardDescription>
          Mint a tenant-scoped token: a signed JWT that lets a program act in this organisation (or
          one app) for a limited time. Send it as <code>Authorization: Bearer …</code>.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {forbidden ? (
          <p className="text-sm text-muted-foreground">
            Only owners and admins can mint, list and revoke tenant tokens.
          </p>
        ) : (
          <>
            <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
              <Field label="Organization id" value={orgId} />
              <Field
                label="App id (optional)"
                placeholder="Whole organization"
                value={appId}
                onChange={setAppId}
              />
              <Field
                label="TTL seconds"
                inputMode="numeric"
                placeholder="3600 (at most 86400)"
                value={ttlSeconds}
                onChange={setTtlSeconds}
              />
              <Field label="Scopes" placeholder="read,write" value={scope} onChange={setScope} />
              <div className="sm:col-span-2">
                <Button type="submit" disabled={mint.isPending}>
                  <KeyRoundIcon aria-hidden="true" />
                  {mint.isPending ? 'Minting…' : 'Mint token'}
                </Button>
              </div>
            </form>
            {minted && <MintedToken minted={minted} onCopy={copy} />}
            <TokenList
              tokens={tokens.data?.items}
              fetchedAt={tokens.dataUpdatedAt}
              loading={tokens.isPending}
              error={tokens.error}
              onRevoke={(jti) => {
                if (window.confirm('Revoke this token?')) revoke.mutate(jti)
              }}
            />
          </>
        )}
      </CardContent>
    </Card>
  )
}

/** A labelled text field of the mint form; read-only without `onChange`. */
function Field({
  label,
  value,
  onChange,
  ...input
}: {
  label: string
  value: string
  onChange?: (value: string) => void
  placeholder?: string
  inputMode?: 'numeric'
}) {
  const id = useId()
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={value}
        readOnly={!onChange}
        onChange={onChange ? (event) => onChange(event.target.value) : undefined}
        {...input}
      />
    </div>
  )
}

/** The token just minted, shown this once, with its decoded header and claims. */
function MintedToken({
  minted,
  onCopy,
}: {
  minted: MintedTenantToken
  onCopy: (token: string) => Promise<void>
}) {
  const { header, claims } = decodeTenantToken(minted.token)
  return (
    <section aria-label="New token" className="space-y-3 rounded-md border p-3">
      <p className="text-sm font-medium">Copy the token now: it is not shown again.</p>
      <div className="flex items-start gap-2">
        <code
          data-testid="minted-token"
          className="min-w-0 grow break-all rounded bg-muted p-2 font-mono text-xs"
        >
          {minted.token}
        </code>
        <Button type="button" variant="outline" size="sm" onClick={() => void onCopy(minted.token)}>
          <CopyIcon aria-hidden="true" />
          Copy
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {(
          [
            ['Header', 'token-header', header],
            ['Claims', 'token-claims', claims],
          ] as const
        ).map(([title, testId, part]) => (
          <div key={testId}>
            <h4 className="text-sm font-medium">{title}</h4>
            <pre data-testid={testId} className="overflow-x-auto rounded bg-muted p-2 text-xs">
              {JSON.stringify(part, null, 2)}
            </pre>
          </div>
        ))}
      </div>
      {typeof claims.exp === 'number' && (
        <p className="text-sm">
          Expires{' '}
          <time dateTime={new Date(claims.exp * 1000).toISOString()}>{localTime(claims.exp)}</time>
        </p>
      )}
    </section>
  )
}

/** The organisation's tokens: id, app, scopes, lifetime, state and a revoke button. */
function TokenList({
  tokens,
  fetchedAt,
  loading,
  error,
  onRevoke,
}: {
  tokens: TenantToken[] | undefined
  /** When the list was read (ms since the epoch): tokens past their expiry then are 'Expired'. */
  fetchedAt: number
  loading: boolean
  /** A failed load (not a 403, which the panel states itself): said, never read as 'none'. */
  error: Error | null
  onRevoke: (jti: string) => void
}) {
  if (error)
    return (
      <p role="alert" className="text-sm text-destructive">
        The tokens could not be loaded: {error.message}
      </p>
    )
  if (loading) return <p className="text-sm text-muted-foreground">Loading tokens…</p>
  if (!tokens || tokens.length === 0) {
    return <p className="text-sm text-muted-foreground">No tokens minted yet.</p>
  }
  return (
    // Relative: an absolutely placed cell content (a screen-reader label) then scrolls with the
    // table instead of widening the page.
    <div className="relative overflow-x-auto">
      <table className="w-full text-sm">
        <thead className="text-left text-muted-foreground">
          <tr>
            <th className="py-1 pr-3 font-medium">Token id (jti)</th>
            <th className="py-1 pr-3 font-medium">App</th>
            <th className="py-1 pr-3 font-medium">Scopes</th>
            <th className="py-1 pr-3 font-medium">Expires</th>
            <th className="py-1 pr-3 font-medium">State</th>
            <th className="py-1" />
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const state = stateOf(token, fetchedAt)
            return (
              <tr key={token.jti} className="border-t">
                <td className="py-1 pr-3 font-mono text-xs">{token.jti}</td>
                <td className="py-1 pr-3">{token.appId ?? 'All apps'}</td>
                <td className="py-1 pr-3">{token.scope}</td>
                <td className="py-1 pr-3">{localTime(token.expiresAt)}</td>
                <td className="py-1 pr-3">{state}</td>
                <td className="py-1 text-right">
                  {state === 'Active' && (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      aria-label={`Revoke token ${token.jti}`}
                      onClick={() => onRevoke(token.jti)}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

import { useId, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CopyIcon, KeyRoundIcon } from 'lucide-react'
import { toast } from 'sonner'
import * as z from 'zod/mini'
import type { ColumnDef } from '@tanstack/react-table'
import { DataTable } from '../../components/data-table/data-table'
import { Form, FormField, FormSubmit } from '../../components/form/form'
import { useZodForm } from '../../components/form/use-zod-form'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { ApiError } from '../../lib/api'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
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
  const form = useZodForm(mintSchema, {
    appId: currentAppId ?? '',
    ttlSeconds: '',
    scope: 'read,write',
  })
  const [minted, setMinted] = useState<MintedTenantToken | null>(null)
  const manages = managesOrganisation(useOrgRole())
  const tokens = useQuery({ ...tenantTokensQuery(orgId), enabled: manages })
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'tenant-tokens'] })

  const mint = useMutation({
    mutationFn: (request: z.output<typeof mintSchema>) => mintTenantToken(orgId, request),
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

  const copy = async (token: string) => {
    await navigator.clipboard.writeText(token).then(
      () => toast.success('Copied'),
      () => toast.error('Copying failed: select the token and copy it by hand'),
    )
  }
  const columns = tokenColumns(tokens.dataUpdatedAt, (jti) => {
    if (window.confirm('Revoke this token?')) revoke.mutate(jti)
  })
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
            <Form
              form={form}
              onSubmit={(values) => mint.mutate(values)}
              className="grid gap-3 sm:grid-cols-2"
            >
              <Field label="Organization id" value={orgId} />
              <MintField name="appId" label="App id (optional)" placeholder="Whole organization" />
              <MintField
                name="ttlSeconds"
                label="TTL seconds"
                inputMode="numeric"
                placeholder="3600 (at most 86400)"
              />
              <MintField name="scope" label="Scopes" placeholder="read,write" />
              <div className="sm:col-span-2">
                <FormSubmit pending={mint.isPending}>
                  <KeyRoundIcon aria-hidden="true" />
                  {mint.isPending ? 'Minting…' : 'Mint token'}
                </FormSubmit>
              </div>
            </Form>
            {minted && <MintedToken minted={minted} onCopy={copy} />}
            <DataTable
              columns={columns}
              data={tokens.data?.items}
              status={tokens.status}
              error={tokens.error}
              failurePrefix="The tokens could not be loaded: "
              loading="Loading tokens…"
              placeholder="sentence"
              label="Tenant tokens"
              empty="No tokens minted yet."
              getRowId={(token) => token.jti}
            />
          </>
        )}
      </CardContent>
    </Card>
  )
}

/** The mint form's request: the server checks each (app of the organisation, TTL, scopes). */
const mintSchema = z.object({ appId: z.string(), ttlSeconds: z.string(), scope: z.string() })

/** A field of the mint form. */
const MintField = FormField<z.input<typeof mintSchema>>

/** A labelled read-only field of the mint form (what the token is for, not asked). */
function Field({ label, value }: { label: string; value: string }) {
  const id = useId()
  return (
    <div className="space-y-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} readOnly />
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

/** The tokens' columns at `fetchedAt` (ms since the epoch: tokens past expiry then are 'Expired'). */
const tokenColumns = (
  fetchedAt: number,
  onRevoke: (jti: string) => void,
): ColumnDef<TenantToken>[] => [
  {
    header: 'Token id (jti)',
    accessorKey: 'jti',
    meta: { cellClassName: 'font-mono text-xs' },
  },
  { header: 'App', id: 'app', cell: ({ row }) => row.original.appId ?? 'All apps' },
  { header: 'Scopes', accessorKey: 'scope' },
  { header: 'Expires', id: 'expiresAt', cell: ({ row }) => localTime(row.original.expiresAt) },
  { header: 'State', id: 'state', cell: ({ row }) => stateOf(row.original, fetchedAt) },
  {
    header: () => <span className="sr-only">Actions</span>,
    id: 'actions',
    meta: { cellClassName: 'text-right' },
    cell: ({ row }) =>
      stateOf(row.original, fetchedAt) === 'Active' && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={`Revoke token ${row.original.jti}`}
          onClick={() => onRevoke(row.original.jti)}
        >
          Revoke
        </Button>
      ),
  },
]

import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '../../components/ui/button'
import { Input } from '../../components/ui/input'
import { Label } from '../../components/ui/label'
import { ApiError } from '../../lib/api'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import {
  createSsoProvider,
  deleteSsoProvider,
  setRequireSso,
  ssoProvidersQuery,
  verifySsoDomain,
  type NewSsoProvider,
  type SsoProvider,
} from './sso-api'

/** A provider's domain state, in words. */
function verification(provider: SsoProvider): string {
  if (!provider.domainVerified) return 'Domain not verified: nobody signs in through it yet'
  return provider.verifiedVia === 'attested'
    ? 'Domain verified (attested by an owner)'
    : 'Domain verified (DNS)'
}

/** One provider: its issuer, domains, verification (with the DNS record), require SSO, delete. */
function ProviderRow({
  provider,
  isOwner,
  busy,
  onVerify,
  onRequire,
  onDelete,
}: {
  provider: SsoProvider
  isOwner: boolean
  busy: boolean
  onVerify: (method: 'dns' | 'attested') => void
  onRequire: (required: boolean) => void
  onDelete: () => void
}) {
  const domains = provider.domains.join(', ')
  const requireId = useId()
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="font-medium">{domains}</span>
        <span className="text-sm text-muted-foreground">{provider.issuer}</span>
      </div>
      <p className="text-sm">{verification(provider)}</p>
      <p className="text-sm text-muted-foreground">
        Callback to register at the identity provider: <code>{provider.redirectUri}</code>. New
        members join as {provider.defaultRole}.
      </p>
      {!provider.domainVerified && provider.dnsRecord ? (
        <p className="text-sm">
          Publish the TXT record <code>{provider.dnsRecord.name}</code> with the value{' '}
          <code>{provider.dnsRecord.value}</code>.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        {!provider.domainVerified ? (
          <>
            <Button
              type="button"
              size="sm"
              disabled={busy}
              aria-label={`Verify ${domains} by DNS`}
              onClick={() => onVerify('dns')}
            >
              Verify by DNS
            </Button>
            {isOwner ? (
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={busy}
                aria-label={`Attest that the firm controls ${domains}`}
                onClick={() => {
                  if (window.confirm(`Attest that your firm controls ${domains}? This is audited.`))
                    onVerify('attested')
                }}
              >
                Attest as owner
              </Button>
            ) : null}
          </>
        ) : (
          <label htmlFor={requireId} className="flex items-center gap-2 text-sm">
            <input
              id={requireId}
              type="checkbox"
              checked={provider.requireSso}
              disabled={busy}
              onChange={(event) => onRequire(event.target.checked)}
            />
            Require SSO for {domains} (e-mail sign-in links refused)
          </label>
        )}
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={busy}
          aria-label={`Delete the provider of ${domains}`}
          onClick={() => {
            if (window.confirm(`Delete the SSO provider of ${domains}?`)) onDelete()
          }}
        >
          Delete
        </Button>
      </div>
    </li>
  )
}

/** The form registering an OIDC provider. */
function NewProviderForm({
  busy,
  onCreate,
}: {
  busy: boolean
  onCreate: (input: NewSsoProvider) => void
}) {
  const ids = useId()
  const [issuer, setIssuer] = useState('')
  const [clientId, setClientId] = useState('')
  const [clientSecret, setClientSecret] = useState('')
  const [domain, setDomain] = useState('')
  const [defaultRole, setDefaultRole] = useState<'member' | 'admin'>('member')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const domains = domain
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean)
    onCreate({
      issuer: issuer.trim(),
      clientId: clientId.trim(),
      clientSecret,
      domains,
      defaultRole,
    })
  }
  const field = (id: string, label: string, input: ReactNode) => (
    <div className="grid gap-1 text-sm">
      <Label htmlFor={`${ids}-${id}`}>{label}</Label>
      {input}
    </div>
  )
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label="Add an SSO provider">
      {field(
        'issuer',
        'Issuer URL',
        <Input
          id={`${ids}-issuer`}
          type="url"
          required
          placeholder="https://login.yourfirm.com"
          value={issuer}
          onChange={(e) => setIssuer(e.target.value)}
        />,
      )}
      {field(
        'domain',
        'E-mail domain(s)',
        <Input
          id={`${ids}-domain`}
          required
          placeholder="yourfirm.com"
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
        />,
      )}
      {field(
        'client',
        'Client ID',
        <Input
          id={`${ids}-client`}
          required
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
        />,
      )}
      {field(
        'secret',
        'Client secret',
        <Input
          id={`${ids}-secret`}
          type="password"
          required
          autoComplete="off"
          value={clientSecret}
          onChange={(e) => setClientSecret(e.target.value)}
        />,
      )}
      {field(
        'role',
        'Role of new members',
        <select
          id={`${ids}-role`}
          className="h-9 rounded-md border bg-background px-2"
          value={defaultRole}
          onChange={(e) => setDefaultRole(e.target.value === 'admin' ? 'admin' : 'member')}
        >
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>,
      )}
      <div className="flex items-end">
        <Button type="submit" disabled={busy}>
          Add provider
        </Button>
      </div>
    </form>
  )
}

/**
 * The single sign-on part of the Security screen (issue 45, decision 0152): the organisation's
 * OIDC providers with their domains and verification state (the DNS record to publish, "Verify by
 * DNS", and for owners "Attest as owner"), "Require SSO" once verified, delete, and the form
 * adding one. Owners and admins only; others are told so.
 */
export function SsoPanel() {
  const scope = useOrgScope()
  const role = useOrgRole()
  const manages = managesOrganisation(role)
  const providers = useQuery({ ...ssoProvidersQuery(scope.orgId), enabled: manages })
  const queryClient = useQueryClient()
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: ssoProvidersQuery(scope.orgId).queryKey })
  const change = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: async () => {
      toast.success('Single sign-on updated')
      await refresh()
    },
    onError: (error) => toast.error(error.message),
  })
  const forbidden =
    !manages || (providers.error instanceof ApiError && providers.error.code === 'forbidden')
  const busy = change.isPending

  return (
    <section aria-labelledby="sso-title" className="space-y-3">
      <h2 id="sso-title" className="font-serif text-lg font-semibold">
        Single sign-on
      </h2>
      <p className="text-sm text-muted-foreground">
        Sign your people in through your firm&apos;s identity provider (OpenID Connect). A provider
        signs nobody in until its domain is verified; people signing in through it for the first
        time join with its default role.
      </p>
      {forbidden ? (
        <p role="alert" className="text-sm text-destructive">
          Only owners and admins manage single sign-on.
        </p>
      ) : providers.status === 'pending' ? (
        <p className="text-sm">Loading SSO providers…</p>
      ) : providers.status === 'error' ? (
        <p role="alert" className="text-sm text-destructive">
          {providers.error.message}
        </p>
      ) : (
        <>
          {providers.data.providers.length === 0 ? (
            <p className="text-sm">No provider yet.</p>
          ) : (
            <ul className="divide-y" aria-label="SSO providers">
              {providers.data.providers.map((provider) => (
                <ProviderRow
                  key={provider.providerId}
                  provider={provider}
                  isOwner={role === 'owner'}
                  busy={busy}
                  onVerify={(method) =>
                    change.mutate(() => verifySsoDomain(scope.orgId, provider.providerId, method))
                  }
                  onRequire={(required) =>
                    change.mutate(() => setRequireSso(scope.orgId, provider.providerId, required))
                  }
                  onDelete={() =>
                    change.mutate(() => deleteSsoProvider(scope.orgId, provider.providerId))
                  }
                />
              ))}
            </ul>
          )}
          <h3 className="text-sm font-semibold">Add a provider</h3>
          <NewProviderForm
            busy={busy}
            onCreate={(input) => change.mutate(() => createSsoProvider(scope.orgId, input))}
          />
        </>
      )}
    </section>
  )
}

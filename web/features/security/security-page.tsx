import { Fragment } from 'react'
import { Link } from 'react-router'
import { PageHeader } from '../../components/page-header'
import { orgPath } from '../../lib/org-path'
import { useOrgScope } from '../../lib/org-scope'
import { ApiKeysPanel } from './api-keys-panel'
import { LegalHoldsPanel } from './legal-holds-panel'
import { RetentionPanel } from './retention-panel'
import { SsoPanel } from './sso-panel'
import { TenantTokensPanel } from './tenant-tokens-panel'

/**
 * /dashboard/:orgSlug/security: the link to the audit log and the security panels, one after
 * the other: API keys, tenant tokens, legal holds, retention, then single sign-on.
 */
export function SecurityPage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Security"
        description="Tenant-scoped tokens and API keys for the current organization."
      />
      <div className="flex flex-col gap-8">
        <p className="text-sm">
          <Link className="underline" to={orgPath({ orgSlug: scope.orgSlug }, 'audit')}>
            Audit log
          </Link>
          : who did what, when (owners and admins).
        </p>
        {/* Keyed by scope: a token minted here is never shown in another organisation or app. */}
        <Fragment key={`${scope.orgId}:${scope.appId ?? ''}`}>
          <ApiKeysPanel />
          <TenantTokensPanel />
          <LegalHoldsPanel />
          <RetentionPanel />
          <SsoPanel />
        </Fragment>
      </div>
    </>
  )
}

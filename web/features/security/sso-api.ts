/**
 * Single sign-on providers of an organisation (issue 45, decision 0152): the list (query keyed
 * `['orgs', orgId, 'sso-providers']`), registering an OIDC provider, verifying its domain (DNS
 * or an owner's attestation), requiring SSO, deleting. Every call rejects with an ApiError
 * carrying the server's problem.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type SsoProvider = components['schemas']['SsoProviderInput']

/** What the panel registers: an OIDC provider found by discovery. */
export interface NewSsoProvider {
  issuer: string
  clientId: string
  clientSecret: string
  domains: string[]
  defaultRole: 'member' | 'admin'
}

/** The organisation's providers (owners and admins; others get a 403). */
export const ssoProvidersQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'sso-providers'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/sso-providers', { params: { path: { orgId } }, signal })
        .then(unwrap),
  })

/** Registers an OIDC provider; its domain starts unverified. */
export const createSsoProvider = (orgId: string, body: NewSsoProvider): Promise<SsoProvider> =>
  api
    .POST('/api/v1/orgs/{orgId}/sso-providers', {
      params: { path: { orgId } },
      body: { type: 'oidc', ...body },
    })
    .then(unwrap)

/** Verifies a provider's domain: by its DNS TXT record, or attested by an owner. */
export const verifySsoDomain = (
  orgId: string,
  providerId: string,
  method: 'dns' | 'attested',
): Promise<SsoProvider> =>
  api
    .POST('/api/v1/orgs/{orgId}/sso-providers/{providerId}/verify-domain', {
      params: { path: { orgId, providerId } },
      body: { method },
    })
    .then(unwrap)

/** Requires SSO for the provider's domains (e-mail links then refused), or stops requiring it. */
export const setRequireSso = (
  orgId: string,
  providerId: string,
  required: boolean,
): Promise<SsoProvider> =>
  api
    .PUT('/api/v1/orgs/{orgId}/sso-providers/{providerId}/require-sso', {
      params: { path: { orgId, providerId } },
      body: { required },
    })
    .then(unwrap)

/** Deletes a provider. */
export const deleteSsoProvider = (orgId: string, providerId: string): Promise<void> =>
  api
    .DELETE('/api/v1/orgs/{orgId}/sso-providers/{providerId}', {
      params: { path: { orgId, providerId } },
    })
    .then(unwrap)
    .then(() => undefined)

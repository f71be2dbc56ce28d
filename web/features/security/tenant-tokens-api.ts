/**
 * Tenant tokens' data access (decision 0048): mint, list and revoke the organisation's tokens,
 * and read a minted token's header and claims for display.
 */
import { queryOptions } from '@tanstack/react-query'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type TenantToken = components['schemas']['TenantToken']
export type MintedTenantToken = components['schemas']['MintedTenantToken']

/** What the mint form sends: texts as typed (the server applies the defaults and limits). */
export interface MintRequest {
  appId: string
  ttlSeconds: string
  scope: string
}

/** The organisation's tokens, newest first. Key `['orgs', orgId, 'tenant-tokens']`. */
export const tenantTokensQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'tenant-tokens'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/tokens', {
          params: { path: { orgId }, query: { limit: 200 } },
          signal,
        })
        .then(unwrap),
  })

/** Mints a token; blank fields are left out so the server's defaults apply. */
export function mintTenantToken(orgId: string, request: MintRequest) {
  const appId = request.appId.trim()
  const scope = request.scope.trim()
  return api
    .POST('/api/v1/orgs/{orgId}/tokens', {
      params: { path: { orgId } },
      body: {
        ...(appId ? { app_id: appId } : {}),
        ...(scope ? { scope } : {}),
        ttl_seconds: request.ttlSeconds,
      },
    })
    .then(unwrap)
}

/** Revokes token `jti`. */
export function revokeTenantToken(orgId: string, jti: string) {
  return api
    .DELETE('/api/v1/orgs/{orgId}/tokens/{jti}', { params: { path: { orgId, jti } } })
    .then(unwrap)
}

/** The header and claims of `token` (`ldt_` + JWT), read from the token itself, unverified. */
export function decodeTenantToken(token: string) {
  const jwt = token.replace(/^ldt_/, '')
  return { header: decodeProtectedHeader(jwt), claims: decodeJwt(jwt) }
}

/**
 * API keys of an organisation (issue 23): the list (query keyed `['orgs', orgId, 'api-keys']`),
 * creating one (its answer holds the secret, once) and revoking one. Every call rejects with an
 * ApiError carrying the server's problem.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type ApiKey = components['schemas']['ApiKeyInput']
export type CreatedApiKey = components['schemas']['CreatedApiKeyInput']

/** What the create dialog sends; `scopes` as typed (comma-separated), `expiresAt` ISO 8601. */
export interface NewApiKey {
  name: string
  scopes: string
  expiresAt?: string
  appId?: string
}

/** The organisation's keys, newest first (admins and owners; others get a 403). */
export const apiKeysQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'api-keys'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/api-keys', { params: { path: { orgId } }, signal })
        .then(unwrap),
  })

/** Creates a key; the answer's `key` is the secret, never shown again. */
export const createApiKey = (orgId: string, body: NewApiKey): Promise<CreatedApiKey> =>
  api.POST('/api/v1/orgs/{orgId}/api-keys', { params: { path: { orgId } }, body }).then(unwrap)

/** Revokes the key `keyId` at once. */
export const revokeApiKey = (orgId: string, keyId: string): Promise<void> =>
  api
    .DELETE('/api/v1/orgs/{orgId}/api-keys/{keyId}', { params: { path: { orgId, keyId } } })
    .then(unwrap)

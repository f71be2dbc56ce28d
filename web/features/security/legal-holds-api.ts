/**
 * Legal holds of an organisation (issue 45, decision 0147): the standing ones (query keyed
 * `['orgs', orgId, 'legal-holds']`, the first 200, newest first), placing one and releasing one.
 * Every call rejects with an ApiError carrying the server's problem.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../lib/api'
import type { components } from '../../lib/api-schema'

export type LegalHold = components['schemas']['LegalHoldInput']

/** What the panel places: a hold on an app (other kinds go through the API for now). */
export interface NewLegalHold {
  targetKind: 'app' | 'document' | 'recording' | 'member'
  targetId: string
  reason: string
}

/** The holds that stand (admins and owners; others get a 403). */
export const legalHoldsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'legal-holds'] as const,
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/legal-holds', {
          params: { path: { orgId }, query: { inForce: 'true', limit: 200 } },
          signal,
        })
        .then(unwrap),
  })

/** Places a hold; every deletion it reaches is refused (409 `legal_hold`) while it stands. */
export const placeLegalHold = (orgId: string, body: NewLegalHold): Promise<LegalHold> =>
  api.POST('/api/v1/orgs/{orgId}/legal-holds', { params: { path: { orgId } }, body }).then(unwrap)

/** Releases hold `holdId` (it stays on record as released). */
export const releaseLegalHold = (orgId: string, holdId: string): Promise<LegalHold> =>
  api
    .DELETE('/api/v1/orgs/{orgId}/legal-holds/{holdId}', {
      params: { path: { orgId, holdId } },
    })
    .then(unwrap)

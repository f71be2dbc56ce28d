/** The organisation's recording-consent notice: whether the caller acknowledged it, and doing so. */
import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../../lib/api'

/** When the caller acknowledged the organisation's recording notice (`acknowledgedAt`, or null). */
export const consentQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'voice-consent'],
    queryFn: ({ signal }) =>
      api
        .GET('/api/v1/orgs/{orgId}/voice/consent', { params: { path: { orgId } }, signal })
        .then(unwrap),
  })

/** Records the caller's acknowledgement of the consent notice. */
export function acknowledgeConsent(orgId: string) {
  return api
    .POST('/api/v1/orgs/{orgId}/voice/consent', { params: { path: { orgId } } })
    .then(unwrap)
}

/** Parameter schemas shared by tenant routes (`/orgs/{orgId}/…`). */
import { z } from 'zod'

/** `{ orgId }` of a tenant route; the guard answers 404 when it is not the principal's org. */
export const OrgParams = z.object({ orgId: z.string().min(1).max(100) })

/** `{ orgId, documentId }` of a route on one document; a malformed id is a 400 problem. */
export const DocumentParams = OrgParams.extend({
  documentId: z.string().uuid({ message: 'Document id must be a UUID' }),
})

/**
 * The id of one of the organisation's apps (decision 8), as a query parameter or body field;
 * a malformed id is a 400 problem, another organisation's app a 404.
 */
export const AppId = z.string().uuid({ message: 'appId must be an app id (UUID)' })

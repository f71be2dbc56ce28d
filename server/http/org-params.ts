/** Path parameters shared by every organisation route (`/api/v1/orgs/:orgId/…`). */
import { z } from 'zod'

/** `orgId`: a better-auth organisation id. */
export const OrgParams = z.object({ orgId: z.string().min(1).max(100) })

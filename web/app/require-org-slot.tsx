import type { RequireOrgSlot } from '../lib/org-scope'
import { RequireOrg } from '../features/orgs/require-org'

/** The organisation gate handed to feature pages: `RequireOrg` from the orgs feature. */
export const requireOrg: RequireOrgSlot = (render) => <RequireOrg>{render}</RequireOrg>

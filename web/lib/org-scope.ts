/**
 * The seam between the organisation selection (web/features/orgs) and the screens that show a
 * tenant's data: the app layer resolves the current scope and hands it to feature pages, so no
 * feature imports the orgs feature.
 */
import type { ReactNode } from 'react'

/** The organisation, and the app within it (null for 'All apps'), whose data a screen shows. */
export interface OrgScope {
  orgId: string
  appId: string | null
}

/**
 * Renders `render(scope)` once an organisation is chosen, otherwise the 'Select an organization'
 * prompt. web/app/ supplies it to pages as a prop.
 */
export type RequireOrgSlot = (render: (scope: OrgScope) => ReactNode) => ReactNode

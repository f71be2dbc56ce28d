import { useQuery } from '@tanstack/react-query'
import { ownedOrgsQuery } from '../features/orgs/api/orgs'
import { SettingsPage } from '../features/settings/settings-page'

/**
 * /dashboard/:orgSlug/settings: the Data Management page, given the organisations the user owns
 * (the import's possible targets, and where a new organisation made by an import is found).
 */
export function SettingsRoute() {
  const owned = useQuery(ownedOrgsQuery())
  return <SettingsPage ownedOrgs={owned.data ?? []} ownedOrgsError={owned.error} />
}

import { PageHeader } from '../../components/page-header'
import { managesOrganisation, useOrgRole } from '../../lib/org-role'
import { useOrgScope } from '../../lib/org-scope'
import { EntitiesScreen } from './components/entities-screen'

/** /dashboard/:orgSlug/entities: the entities table of the URL's organisation. */
export function EntitiesPage() {
  const scope = useOrgScope()
  const manages = managesOrganisation(useOrgRole())
  return (
    <>
      <PageHeader
        title="Entities"
        description="Typed records with JSON data belonging to the current organization."
      />
      {/* Keyed by scope: another organisation or app starts from a fresh table state. */}
      <EntitiesScreen key={`${scope.orgId}:${scope.appId ?? ''}`} scope={scope} manages={manages} />
    </>
  )
}

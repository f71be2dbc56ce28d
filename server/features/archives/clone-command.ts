/**
 * The operator's clone, outside the web server (`npm run lexdesk -- clone --org SLUG --name NAME
 * [--no-buckets]`, scripts/lexdesk.ts): the same clone as the 'tenant-clone' job
 * (clone-organisation.ts). The copy is owned by the source's first owner, and every member of
 * the source joins it with their role, as in the job; recorded in the source's audit and event
 * logs as the system's. Indexing it queues for the copy runs when the server starts.
 */
import { cloneOrganisation, type CloneDeps, type CloneSummary } from './clone-organisation'
import { firstOwner, orgIdBySlug } from './org-members'

/**
 * Clones the organisation whose slug is `options.org` into a new one named `options.name`;
 * resolves to the copy's id, slug and counts. Throws 404 `organization_not_found` for an unknown
 * slug or an organisation without an owner, and whatever the clone throws (nothing is left).
 */
export async function cloneFromCommand(
  deps: CloneDeps,
  options: { org: string; name: string; cloneBuckets: boolean },
  progress: (message: string) => void = () => undefined,
): Promise<CloneSummary> {
  const orgId = await orgIdBySlug(deps.db, options.org)
  return cloneOrganisation(
    deps,
    {
      actor: { orgId, userId: null, role: 'owner', actorType: 'system' },
      ownerId: await firstOwner(deps.db, orgId),
      jobId: null,
      targetOrgName: options.name,
      cloneBuckets: options.cloneBuckets,
    },
    { signal: new AbortController().signal, progress: (_fraction, message) => progress(message) },
  )
}

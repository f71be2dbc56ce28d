import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import type { RequireOrgSlot } from '../../lib/org-scope'

/** /dashboard/storage: placeholder screen (Storage); shows the organization prompt, then a not-yet-available note. */
export function StoragePage({ requireOrg }: { requireOrg: RequireOrgSlot }) {
  return (
    <>
      <PageHeader title="Storage" description="Buckets and files of the current organization." />
      {requireOrg(() => (
        <ComingSoon>
          <p>Bucket and file management is not available yet.</p>
        </ComingSoon>
      ))}
    </>
  )
}

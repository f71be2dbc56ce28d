import { ComingSoon } from '../../components/coming-soon'
import { PageHeader } from '../../components/page-header'
import { RealtimeMonitorPanel } from './realtime-monitor-panel'

/** /dashboard/:orgSlug/storage: placeholder screen (Storage); a not-yet-available note. */
export function StoragePage() {
  return (
    <>
      <PageHeader title="Storage" description="Buckets and files of the current organization." />
      <ComingSoon>
        <p>Bucket and file management is not available yet.</p>
      </ComingSoon>
      <RealtimeMonitorPanel />
    </>
  )
}

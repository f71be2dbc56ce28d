import { PageHeader } from '../../components/page-header'
import { BucketsPanel } from './buckets-panel'
import { RealtimeMonitorPanel } from './realtime-monitor-panel'

/** /dashboard/:orgSlug/storage: the Buckets panel and the Realtime Monitor. */
export function StoragePage() {
  return (
    <>
      <PageHeader title="Storage" description="Buckets and files of the current organization." />
      <BucketsPanel />
      <RealtimeMonitorPanel />
    </>
  )
}

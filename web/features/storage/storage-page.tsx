import { Fragment } from 'react'
import { PageHeader } from '../../components/page-header'
import { useOrgScope } from '../../lib/org-scope'
import { BucketsPanel } from './buckets-panel'
import { RealtimeMonitorPanel } from './realtime-monitor-panel'

/** /dashboard/:orgSlug/storage: the Buckets panel and the Realtime Monitor. */
export function StoragePage() {
  const { orgId } = useOrgScope()
  return (
    <>
      <PageHeader title="Storage" description="Buckets and files of the current organization." />
      {/* Keyed by org: another organisation starts with no bucket picked and an empty log. */}
      <Fragment key={orgId}>
        <BucketsPanel />
        <RealtimeMonitorPanel />
      </Fragment>
    </>
  )
}

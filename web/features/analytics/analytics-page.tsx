import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ClockIcon, DownloadIcon, FileTextIcon, MicIcon, UsersIcon } from 'lucide-react'
import type { LucideIcon } from 'lucide-react'
import { ActivityList } from '../../components/activity-list'
import { PageHeader } from '../../components/page-header'
import { Button } from '../../components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card'
import { activityQuery } from '../../hooks/activity'
import { useOrgScope } from '../../lib/org-scope'
import { PERIODS, usageQuery, type Period, type Usage } from './api'
import { UsageChart } from './usage-chart'
import { usageCsv } from './usage-series'

/** Seconds with one decimal under a minute ("1.8 s"), else minutes ("2.5 min"); — for none. */
function formatDuration(ms: number | null): string {
  if (ms === null) return '—'
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`
}

const metrics: { label: string; icon: LucideIcon; value: (u: Usage) => string }[] = [
  {
    label: 'Documents analysed',
    icon: FileTextIcon,
    value: (u) => u.totals.documentsAnalysed.toLocaleString(),
  },
  {
    label: 'Voice recordings',
    icon: MicIcon,
    value: (u) => u.totals.voiceRecordings.toLocaleString(),
  },
  { label: 'Active users', icon: UsersIcon, value: (u) => u.totals.activeUsers.toLocaleString() },
  {
    label: 'Avg. processing time',
    icon: ClockIcon,
    value: (u) => formatDuration(u.totals.avgProcessingMs),
  },
]

/** Saves `usage`'s series as `lexdesk-usage-<from>-<to>.csv`. */
function downloadCsv(usage: Usage) {
  const url = URL.createObjectURL(new Blob([usageCsv(usage.series)], { type: 'text/csv' }))
  const link = document.createElement('a')
  link.href = url
  link.download = `lexdesk-usage-${usage.from}-${usage.to}.csv`
  link.click()
  URL.revokeObjectURL(url)
}

/**
 * /dashboard/:orgSlug/analytics: documents analysed, voice recordings, active users and average
 * processing time of the last 7, 30 (default) or 90 days, the daily series as a chart and CSV,
 * and the recent activity, for the URL's organisation and app (decision 0060).
 */
export function AnalyticsPage() {
  const scope = useOrgScope()
  const [days, setDays] = useState<Period>(30)
  const usage = useQuery(usageQuery(scope.orgId, scope.appId, days))
  const activity = useQuery(activityQuery(scope.orgId, scope.appId))
  return (
    <>
      <PageHeader
        title="Analytics"
        description="How your team uses Lexdesk."
        actions={
          <div role="group" aria-label="Period" className="flex gap-1">
            {PERIODS.map((p) => (
              <Button
                key={p}
                size="sm"
                variant={p === days ? 'secondary' : 'ghost'}
                aria-pressed={p === days}
                onClick={() => setDays(p)}
              >
                Last {p} days
              </Button>
            ))}
          </div>
        }
      />
      <div className="space-y-6">
        {usage.isError && (
          <p role="alert" className="text-sm text-destructive">
            The figures could not be loaded: {usage.error.message}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {metrics.map((m) => (
            <Card key={m.label}>
              <CardContent className="p-5">
                <dl className="space-y-1">
                  <dt className="flex items-center justify-between text-sm text-muted-foreground">
                    <span>{m.label}</span>
                    <m.icon className="size-4" aria-hidden="true" />
                  </dt>
                  <dd className="font-serif text-2xl font-semibold">
                    {usage.data ? m.value(usage.data) : '—'}
                  </dd>
                </dl>
              </CardContent>
            </Card>
          ))}
        </div>
        {/* One shrinkable column on phones, so a long activity line or the chart cannot widen it. */}
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-3">
          <Card className="min-w-0 lg:col-span-2">
            <CardHeader className="flex flex-row items-center justify-between gap-2">
              <CardTitle>Usage over time</CardTitle>
              <Button
                size="sm"
                variant="outline"
                disabled={!usage.data}
                onClick={() => usage.data && downloadCsv(usage.data)}
              >
                <DownloadIcon aria-hidden="true" />
                Download CSV
              </Button>
            </CardHeader>
            <CardContent>
              {usage.data ? (
                <UsageChart series={usage.data.series} />
              ) : (
                !usage.isError && <p className="text-sm text-muted-foreground">Loading…</p>
              )}
            </CardContent>
          </Card>
          <Card className="min-w-0">
            <CardHeader>
              <CardTitle>Recent activity</CardTitle>
            </CardHeader>
            <CardContent>
              <ActivityList items={activity.data?.items} error={activity.error} scope={scope} />
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  )
}

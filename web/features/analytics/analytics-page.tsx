import { BarChart3Icon, ClockIcon, FileTextIcon, MicIcon, UsersIcon } from 'lucide-react'
import type { LucideIcon } from 'lucide-react'
import { PageHeader } from '../../components/page-header'
import { Badge } from '../../components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card'

// Static placeholders, as the spec describes; the page says so ('Sample data').
const metrics: { label: string; value: string; change: string; icon: LucideIcon }[] = [
  { label: 'Documents Analyzed', value: '128', change: '+12% from last month', icon: FileTextIcon },
  { label: 'Voice Recordings', value: '42', change: '+8% from last month', icon: MicIcon },
  { label: 'Active Users', value: '8', change: '+2 from last month', icon: UsersIcon },
  {
    label: 'Avg. Processing Time',
    value: '1.8s',
    change: '−0.3s from last month',
    icon: ClockIcon,
  },
]

const activity = [
  { what: 'Contract analysis completed', when: '5 minutes ago' },
  { what: 'Voice recording transcribed', when: '1 hour ago' },
  { what: 'Risk report generated', when: '3 hours ago' },
  { what: 'New team member joined', when: 'Yesterday' },
]

/** /dashboard/:orgSlug/analytics: static metric cards, a chart placeholder and a static activity list. */
export function AnalyticsPage() {
  return (
    <>
      <PageHeader
        title="Analytics"
        description="How your team uses Lexdesk."
        actions={
          <>
            <Badge variant="outline">Sample data</Badge>
            <Badge variant="secondary">Last 30 days</Badge>
          </>
        }
      />
      <div className="space-y-6">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {metrics.map((m) => (
            <Card key={m.label}>
              <CardContent className="space-y-1 p-5">
                <div className="flex items-center justify-between text-sm text-muted-foreground">
                  <span>{m.label}</span>
                  <m.icon className="size-4" aria-hidden="true" />
                </div>
                <p className="font-serif text-2xl font-semibold">{m.value}</p>
                <p className="text-xs text-muted-foreground">{m.change}</p>
              </CardContent>
            </Card>
          ))}
        </div>
        <div className="grid gap-6 lg:grid-cols-3">
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>Usage over time</CardTitle>
            </CardHeader>
            <CardContent>
              <div className="flex h-64 flex-col items-center justify-center gap-2 rounded-md border border-dashed text-sm text-muted-foreground">
                <BarChart3Icon className="size-8" aria-hidden="true" />
                Chart visualization coming soon
              </div>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Recent activity</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="divide-y text-sm">
                {activity.map((a) => (
                  <li key={a.what} className="py-3">
                    <p>{a.what}</p>
                    <p className="text-xs text-muted-foreground">{a.when}</p>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  )
}

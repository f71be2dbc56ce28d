import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { LucideIcon } from 'lucide-react'
import { BarChart3Icon, FileTextIcon, MicIcon, UsersIcon } from 'lucide-react'
import { PageHeader } from '../../components/page-header'
import { useQuery } from '@tanstack/react-query'
import { ActivityList } from '../../components/activity-list'
import { activityQuery } from '../../hooks/activity'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { authClient } from '../../lib/auth-client'
import { orgPath } from '../../lib/org-path'
import { useOrgScope } from '../../lib/org-scope'
import { overviewQuery, type DashboardOverview } from './api'

const tiles: { key: keyof DashboardOverview; label: string; icon: LucideIcon }[] = [
  { key: 'documents', label: 'Documents', icon: FileTextIcon },
  { key: 'analyses', label: 'Analyses', icon: BarChart3Icon },
  { key: 'recordings', label: 'Voice recordings', icon: MicIcon },
  { key: 'members', label: 'Team members', icon: UsersIcon },
]

const quickActions = [
  {
    screen: 'documents',
    title: 'Analyze a document',
    text: 'Upload or paste a contract and get a summary, clauses and risks.',
    icon: FileTextIcon,
  },
  {
    screen: 'voice',
    title: 'Start a voice recording',
    text: 'Dictate a note or record a meeting for transcription.',
    icon: MicIcon,
  },
  {
    screen: 'analytics',
    title: 'View analytics',
    text: 'See how your team uses Lexdesk.',
    icon: BarChart3Icon,
  },
]

/**
 * /dashboard/:orgSlug: welcome, the `assistant` panel, four tiles (documents, analyses, voice
 * recordings, members), three quick actions and the recent activity, all of the URL's
 * organisation and app (decision 0060).
 */
export function DashboardHomePage({
  assistant,
}: {
  /** The assistant panel (composed by the app layer). */
  assistant?: ReactNode
}) {
  const scope = useOrgScope()
  const { data: session } = authClient.useSession()
  const name = session?.user.name || session?.user.email
  const figures = useQuery(overviewQuery(scope.orgId, scope.appId))
  const activity = useQuery(activityQuery(scope.orgId, scope.appId))
  return (
    <div className="space-y-8">
      <PageHeader
        title="Dashboard"
        description={
          name ? `Welcome back, ${name}. Here is an overview of your workspace.` : 'Welcome back.'
        }
      />
      {assistant}
      <section aria-labelledby="stats-heading">
        <h2 id="stats-heading" className="sr-only">
          Statistics
        </h2>
        {figures.isError && (
          <p role="alert" className="mb-2 text-sm text-destructive">
            The figures could not be loaded: {figures.error.message}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {tiles.map((s) => (
            <Card key={s.key}>
              <CardContent className="flex items-center justify-between p-5">
                <dl>
                  <dt className="text-sm text-muted-foreground">{s.label}</dt>
                  <dd className="mt-1 font-serif text-2xl font-semibold">
                    {figures.data ? figures.data[s.key].toLocaleString() : '—'}
                  </dd>
                </dl>
                <s.icon className="size-6 text-muted-foreground" aria-hidden="true" />
              </CardContent>
            </Card>
          ))}
        </div>
      </section>
      <section aria-labelledby="actions-heading" className="space-y-3">
        <h2 id="actions-heading" className="text-lg font-semibold">
          Quick actions
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          {quickActions.map((a) => (
            <Link
              key={a.screen}
              to={orgPath(scope, a.screen)}
              className="group rounded-lg focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <Card className="h-full transition-colors group-hover:border-primary/50 group-hover:bg-accent/40">
                <CardHeader>
                  <a.icon className="mb-1 size-6 text-primary" aria-hidden="true" />
                  <CardTitle>{a.title}</CardTitle>
                  <CardDescription>{a.text}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          ))}
        </div>
      </section>
      <section aria-labelledby="activity-heading">
        <Card>
          <CardHeader>
            <CardTitle id="activity-heading">Recent activity</CardTitle>
          </CardHeader>
          <CardContent>
            <ActivityList items={activity.data?.items} error={activity.error} scope={scope} />
          </CardContent>
        </Card>
      </section>
    </div>
  )
}

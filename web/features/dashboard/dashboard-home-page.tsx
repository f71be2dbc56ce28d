import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { LucideIcon } from 'lucide-react'
import { BarChart3Icon, ClockIcon, FileTextIcon, MicIcon, UsersIcon } from 'lucide-react'
import { PageHeader } from '../../components/page-header'
import { Badge } from '../../components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { authClient } from '../../lib/auth-client'
import { orgPath } from '../../lib/org-path'
import { useOrgScope } from '../../lib/org-scope'

// Hard-coded placeholders (the spec asks for static tiles); labelled 'Sample data' on screen.
const stats: { label: string; value: string; icon: LucideIcon }[] = [
  { label: 'Documents analyzed', value: '128', icon: FileTextIcon },
  { label: 'Voice recordings', value: '42', icon: MicIcon },
  { label: 'Team members', value: '8', icon: UsersIcon },
  { label: 'Hours saved', value: '36', icon: ClockIcon },
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

const recentActivity = [
  { what: 'Master services agreement analyzed', when: '2 hours ago' },
  { what: 'Client intake call transcribed', when: 'Yesterday' },
  { what: 'Office lease reviewed for risks', when: '2 days ago' },
  { what: 'Mutual NDA summarized', when: 'Last week' },
]

/**
 * /dashboard/:orgSlug: welcome, the `assistant` panel, four sample stat tiles, three quick actions
 * (in the URL's organisation) and a sample activity list.
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
  return (
    <div className="space-y-8">
      <PageHeader
        title="Dashboard"
        description={
          name ? `Welcome back, ${name}. Here is an overview of your workspace.` : 'Welcome back.'
        }
        actions={<Badge variant="outline">Sample data</Badge>}
      />
      {assistant}
      <section aria-labelledby="stats-heading">
        <h2 id="stats-heading" className="sr-only">
          Statistics
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {stats.map((s) => (
            <Card key={s.label}>
              <CardContent className="flex items-center justify-between p-5">
                <div>
                  <p className="text-sm text-muted-foreground">{s.label}</p>
                  <p className="mt-1 font-serif text-2xl font-semibold">{s.value}</p>
                </div>
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
            <ul className="divide-y">
              {recentActivity.map((item) => (
                <li key={item.what} className="flex items-center justify-between py-3 text-sm">
                  <span>{item.what}</span>
                  <span className="text-muted-foreground">{item.when}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </section>
    </div>
  )
}

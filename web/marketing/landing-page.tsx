import { Link } from 'react-router'
import {
  ArrowRightIcon,
  BrainCircuitIcon,
  CheckIcon,
  FileSearchIcon,
  FolderLockIcon,
  LockIcon,
  MicIcon,
  ServerIcon,
  UsersIcon,
  ZapIcon,
} from 'lucide-react'
import { Badge } from '../components/ui/badge'
import { Button } from '../components/ui/button'
import { Card, CardDescription, CardHeader, CardTitle } from '../components/ui/card'

// Only statements a buyer can check in the source and its configuration: no customer counts,
// uptime figures or certifications, which a self-hosted open-source product cannot promise.
const stats = [
  { value: 'Self-hosted', label: 'Runs on your firm’s own server' },
  { value: 'AGPL-3.0', label: 'Open-source licence' },
  { value: 'Offline', label: 'By default: local AI, no outside calls' },
  { value: 'Per firm', label: 'Row-level security for each organization' },
]

const features = [
  {
    icon: MicIcon,
    title: 'Voice recording',
    text: 'Dictate notes and client meetings; Lexdesk transcribes them and files the text with the matter.',
  },
  {
    icon: FileSearchIcon,
    title: 'Document analysis',
    text: 'Summaries, clauses and risks from contracts, NDAs and leases, each linked to the exact passage.',
  },
  {
    icon: BrainCircuitIcon,
    title: 'Smart insights',
    text: 'Key terms, parties and dates pulled out of long documents so you can review faster.',
  },
  {
    icon: ZapIcon,
    title: 'Fast turnaround',
    text: 'First-pass review in seconds rather than hours, so lawyers spend their time on judgement.',
  },
  {
    icon: LockIcon,
    title: 'Security first',
    text: 'Every record belongs to one organization and is checked on every request.',
  },
  {
    icon: FolderLockIcon,
    title: 'Your own storage',
    text: 'Documents and recordings live on the firm’s server, in a library the whole team can search.',
  },
]

const securityPoints = [
  'Self-hosted: nothing leaves the firm’s machine unless an administrator points an AI provider elsewhere',
  'Row-level security per organization: one firm never sees another’s data',
  'Roles Owner, Admin and Member for each organization',
  'Passwordless sign-in with one-time e-mail links',
]

/** Public landing page (/): hero, facts strip, six features, security, call to action. */
export function LandingPage() {
  return (
    <>
      <title>Lexdesk · AI workspace for law firms</title>
      <section className="border-b bg-gradient-to-b from-muted/60 to-background">
        <div className="mx-auto max-w-6xl px-6 py-20 text-center md:py-28">
          <Badge variant="outline" className="mb-6 bg-background">
            <ServerIcon aria-hidden="true" /> Self-hosted · open source
          </Badge>
          <h1 className="mx-auto max-w-3xl font-serif text-4xl font-semibold tracking-tight md:text-6xl">
            The AI workspace for legal teams
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
            Record and transcribe, analyse contracts, and keep your firm’s documents in one place —
            on your own server, under your control.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to="/auth">
                Start free trial <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/features">Explore features</Link>
            </Button>
            <Button asChild size="lg" variant="ghost">
              <Link to="/pricing">See pricing</Link>
            </Button>
          </div>
          <p className="mt-4 text-sm text-muted-foreground">
            14-day free trial. No credit card required.
          </p>
        </div>
      </section>

      <section aria-labelledby="stats-heading" className="border-b">
        <h2 id="stats-heading" className="sr-only">
          Lexdesk in numbers
        </h2>
        <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-6 px-6 py-12 md:grid-cols-4">
          {stats.map((s) => (
            <div key={s.label} className="text-center">
              <dt className="text-sm text-muted-foreground">{s.label}</dt>
              <dd className="order-first font-serif text-3xl font-semibold text-primary">
                {s.value}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-6 py-20">
        <div className="mb-12 text-center">
          <h2 id="features-heading" className="font-serif text-3xl font-semibold tracking-tight">
            Everything a modern practice needs
          </h2>
          <p className="mt-3 text-muted-foreground">
            One workspace for the paperwork that surrounds legal work.
          </p>
        </div>
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((f) => (
            <Card key={f.title}>
              <CardHeader>
                <f.icon className="mb-2 size-8 text-primary" aria-hidden="true" />
                <CardTitle level={3}>{f.title}</CardTitle>
                <CardDescription>{f.text}</CardDescription>
              </CardHeader>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="security-heading" className="bg-primary text-primary-foreground">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-6 py-20 md:grid-cols-2">
          <div className="space-y-4">
            <h2 id="security-heading" className="font-serif text-3xl font-semibold tracking-tight">
              Confidentiality by design
            </h2>
            <p className="text-primary-foreground/80">
              Client privilege is not negotiable. Lexdesk runs where your firm decides, and every
              request is checked against the organization it belongs to.
            </p>
          </div>
          <ul className="space-y-3">
            {securityPoints.map((point) => (
              <li key={point} className="flex gap-3">
                <CheckIcon className="mt-0.5 size-5 shrink-0 text-gold" aria-hidden="true" />
                <span>{point}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="mx-auto max-w-4xl px-6 py-20 text-center">
        <UsersIcon className="mx-auto mb-4 size-10 text-primary" aria-hidden="true" />
        <h2 id="cta-heading" className="font-serif text-3xl font-semibold tracking-tight">
          Ready to give your team its time back?
        </h2>
        <p className="mt-3 text-muted-foreground">
          Install Lexdesk on your firm’s server and try it with your team — no credit card required.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Button asChild size="lg">
            <Link to="/auth">Get Started</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/pricing">Compare plans</Link>
          </Button>
        </div>
      </section>
    </>
  )
}

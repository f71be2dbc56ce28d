import { Link } from 'react-router'
import {
  BrainCircuitIcon,
  CloudIcon,
  FileSearchIcon,
  MicIcon,
  ShieldCheckIcon,
  ZapIcon,
} from 'lucide-react'
import { Button } from '../components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '../components/ui/card'

const features = [
  {
    icon: MicIcon,
    title: 'Voice Recording',
    text: 'Record dictation and meetings in the browser. The audio is transcribed and the transcript can be analysed like any document.',
  },
  {
    icon: FileSearchIcon,
    title: 'Document Analysis',
    text: 'Upload PDF, Word or text files, or paste text. Get a summary, the clauses and the risks, each pointing at the passage it came from.',
  },
  {
    icon: BrainCircuitIcon,
    title: 'Smart Insights',
    text: 'Key terms, parties, dates and obligations surfaced automatically, so nothing important hides on page 40.',
  },
  {
    icon: ZapIcon,
    title: 'Lightning Fast',
    text: 'A first pass over a long contract in seconds, so review time goes to the questions that need a lawyer.',
  },
  {
    icon: ShieldCheckIcon,
    title: 'Bank-Level Security',
    text: 'Self-hosted, passwordless sign-in, roles per organization and row-level separation of every firm’s data.',
  },
  {
    icon: CloudIcon,
    title: 'Cloud Storage',
    text: 'A searchable library of documents and recordings on your firm’s server, shared with your team.',
  },
]

/** Public features page (/features): six feature cards with Sign In and Get Started. */
export function FeaturesPage() {
  return (
    <div className="mx-auto max-w-6xl px-6 py-16">
      <title>Features · Lexdesk</title>
      <div className="mb-12 text-center">
        <h1 className="font-serif text-4xl font-semibold tracking-tight">Features</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
          Tools built for the way legal teams work — and run on infrastructure your firm controls.
        </p>
      </div>
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {features.map((f) => (
          <Card key={f.title}>
            <CardHeader>
              <f.icon className="mb-2 size-8 text-primary" aria-hidden="true" />
              <CardTitle>{f.title}</CardTitle>
            </CardHeader>
            <CardContent className="text-sm text-muted-foreground">{f.text}</CardContent>
          </Card>
        ))}
      </div>
      <div className="mt-14 flex flex-wrap justify-center gap-3">
        <Button asChild size="lg" variant="outline">
          <Link to="/auth">Sign In</Link>
        </Button>
        <Button asChild size="lg">
          <Link to="/auth">Get Started</Link>
        </Button>
      </div>
    </div>
  )
}

import { Link } from 'react-router'
import { FileSearchIcon, LayersIcon, MicIcon } from 'lucide-react'
import { ComingSoon } from '../../components/coming-soon'
import { Button } from '../../components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs'

/** Public /demo: tabs Voice Assistant, Document Analysis and Platform Features (demos not built yet). */
export function DemoPage() {
  return (
    <div className="mx-auto max-w-4xl px-6 py-16">
      <title>Demo · Lexdesk</title>
      <div className="mb-10 text-center">
        <h1 className="font-serif text-4xl font-semibold tracking-tight">Try Lexdesk</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          A look at the voice assistant, document analysis and the platform around them.
        </p>
      </div>
      <Tabs defaultValue="voice" className="gap-6">
        <TabsList className="mx-auto grid h-auto w-full grid-cols-1 sm:h-9 sm:grid-cols-3">
          <TabsTrigger value="voice">
            <MicIcon aria-hidden="true" /> Voice Assistant
          </TabsTrigger>
          <TabsTrigger value="analysis">
            <FileSearchIcon aria-hidden="true" /> Document Analysis
          </TabsTrigger>
          <TabsTrigger value="platform">
            <LayersIcon aria-hidden="true" /> Platform Features
          </TabsTrigger>
        </TabsList>
        <TabsContent value="voice">
          <ComingSoon>
            <p>
              The public voice assistant demo (ask a legal question aloud, hear the answer) is not
              available yet. Signed-in users can record and transcribe in the dashboard.
            </p>
          </ComingSoon>
        </TabsContent>
        <TabsContent value="analysis">
          <ComingSoon>
            <p>
              The public document analysis demo is not available yet. Sign in to analyse your own
              documents: summaries, clauses and risks, each linked to its passage.
            </p>
          </ComingSoon>
        </TabsContent>
        <TabsContent value="platform">
          <ul className="grid gap-3 text-sm sm:grid-cols-2">
            {[
              'Self-hosted: runs on your firm’s server',
              'Organizations with Owner, Admin and Member roles',
              'Passwordless sign-in by e-mail link',
              'Document library with search and type filters',
              'Analyses you can audit, passage by passage',
              'Open source under the AGPL',
            ].map((item) => (
              <li key={item} className="rounded-md border bg-card p-4">
                {item}
              </li>
            ))}
          </ul>
        </TabsContent>
      </Tabs>
      <div className="mt-10 text-center">
        <Button asChild size="lg">
          <Link to="/auth">Get Started</Link>
        </Button>
      </div>
    </div>
  )
}

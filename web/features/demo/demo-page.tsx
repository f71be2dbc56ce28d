import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { FileSearchIcon, LayersIcon, MicIcon } from 'lucide-react'
import { Button } from '../../components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs'
import { DocumentAnalysisDemo, type DemoAnalysisState } from './document-analysis-demo'
import { VoiceAssistant } from './voice-assistant'

const FEATURES = [
  'Voice memos transcribed with timestamps and summarised',
  'Document analysis: summaries, clauses and risks, each linked to its passage',
  'Any AI output read aloud',
  'Organizations with Owner, Admin and Member roles and row-level security',
  'Self-hosted and offline by default: runs on your firm’s server',
  'Open source under the AGPL',
]

/** Public /demo: tabs Voice Assistant, Document Analysis and Platform Features; nothing is stored. */
export function DemoPage({
  renderAnalysis,
}: {
  renderAnalysis: (state: DemoAnalysisState) => ReactNode
}) {
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
          <VoiceAssistant />
        </TabsContent>
        <TabsContent value="analysis">
          <DocumentAnalysisDemo renderAnalysis={renderAnalysis} />
        </TabsContent>
        <TabsContent value="platform">
          <ul className="grid gap-3 text-sm sm:grid-cols-2">
            {FEATURES.map((item) => (
              <li key={item} className="rounded-md border bg-card p-4">
                {item}
              </li>
            ))}
          </ul>
          <div className="mt-6 text-center">
            <Button asChild>
              <Link to="/auth">Sign In</Link>
            </Button>
          </div>
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

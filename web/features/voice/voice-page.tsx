import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { FileTextIcon, MicIcon, SparklesIcon } from 'lucide-react'
import { PageHeader } from '../../components/page-header'
import { Card, CardDescription, CardHeader, CardTitle } from '../../components/ui/card'
import { useOrgScope, type OrgScope } from '../../lib/org-scope'
import { orgSpeech } from '../../hooks/speech'
import { consentQuery } from './api/consent'
import { recordingQuery } from './api/recordings'
import { ConsentNotice } from './components/consent-notice'
import { MemoSummaryPanel } from './components/memo-summary-panel'
import { RecorderCard } from './components/recorder-card'
import type { Cue } from './components/recording-player'
import { RecordingsList } from './components/recordings-list'
import { useVoiceMemo } from './hooks/use-voice-memo'

const CARDS = [
  { icon: MicIcon, title: 'Record', text: 'Dictate a memo or record a meeting in the browser.' },
  {
    icon: FileTextIcon,
    title: 'Transcribe',
    text: 'A timestamped transcript is saved to your document library.',
  },
  {
    icon: SparklesIcon,
    title: 'Summarise',
    text: 'Key points, decisions, action items and names, each with its time in the memo.',
  },
]

/** /dashboard/:orgSlug/voice: explanatory cards, the recorder (after the consent notice), the summary and the recordings. */
export function VoicePage() {
  const scope = useOrgScope()
  return (
    <>
      <PageHeader
        title="Voice Assistant"
        description="Record dictation or meetings and have them transcribed and analysed."
      />
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        {CARDS.map(({ icon: Icon, title, text }) => (
          <Card key={title}>
            <CardHeader>
              <CardTitle className="flex items-center gap-2 text-base">
                <Icon aria-hidden="true" className="size-4" /> {title}
              </CardTitle>
              <CardDescription>{text}</CardDescription>
            </CardHeader>
          </Card>
        ))}
      </div>
      <VoiceWorkspace key={`${scope.orgId}:${scope.appId ?? ''}`} scope={scope} />
    </>
  )
}

function VoiceWorkspace({ scope }: { scope: OrgScope }) {
  const consent = useQuery(consentQuery(scope.orgId))
  const memo = useVoiceMemo(scope)
  // A time cited in the panel plays that recording, whose player is in the list below.
  const [cue, setCue] = useState<Cue | null>(null)
  // The memo's segments, for the summary to say which were heard with low confidence.
  const summarised = memo.summary.status === 'ok' ? memo.summary.recordingId : null
  const heard = useQuery({
    ...recordingQuery(scope.orgId, summarised ?? ''),
    enabled: summarised !== null,
  })
  return (
    <div className="flex flex-col gap-6">
      {consent.isError && <p className="text-sm text-destructive">{consent.error.message}</p>}
      {consent.data?.acknowledgedAt === null && <ConsentNotice orgId={scope.orgId} />}
      {consent.data?.acknowledgedAt && <RecorderCard memo={memo} />}
      <MemoSummaryPanel
        state={memo.summary}
        segments={summarised ? heard.data?.segments : undefined}
        synthesize={orgSpeech(scope.orgId)}
        onCite={(recordingId, start) =>
          setCue((last) => ({ recordingId, start, seq: (last?.seq ?? 0) + 1 }))
        }
      />
      <RecordingsList orgId={scope.orgId} appId={scope.appId} cue={cue} />
    </div>
  )
}

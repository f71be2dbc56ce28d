import { AnalysisPanel } from '../features/analysis/analysis-panel'
import { VoicePage } from '../features/voice/voice-page'
import { orgSpeech } from '../lib/speech'

/**
 * Route element of /dashboard/:orgSlug/voice: the voice screen with the analysis feature's panel
 * composed in for the latest memo's summary (features do not import each other).
 */
export function VoiceRoute() {
  return (
    <VoicePage
      renderSummary={({ orgId, state }) => (
        <AnalysisPanel
          state={state}
          highlight={null}
          onSelectSpan={() => {}}
          synthesize={orgSpeech(orgId)}
        />
      )}
    />
  )
}

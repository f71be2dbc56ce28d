import { AnalysisPanel } from '../features/analysis/analysis-panel'
import { DemoPage } from '../features/demo/demo-page'
import { demoSpeech } from '../hooks/speech'

/** Route element of /demo: the demo with the analysis feature's panel composed in. */
export function DemoRoute() {
  return (
    <DemoPage
      renderAnalysis={(state) => (
        <AnalysisPanel
          state={state}
          highlight={null}
          onSelectSpan={() => {}}
          synthesize={demoSpeech}
        />
      )}
    />
  )
}

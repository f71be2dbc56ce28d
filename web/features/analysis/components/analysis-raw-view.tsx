import type { AnalysisResult } from '../api/types'

/** The analysis result as indented JSON text. */
export function AnalysisRawView({ result }: { result: AnalysisResult }) {
  return (
    <pre
      aria-label="Raw analysis JSON"
      className="max-h-[32rem] overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap"
    >
      {JSON.stringify(result, null, 2)}
    </pre>
  )
}

import type { AnalysisResult } from '../api/types'

/**
 * The text the Listen button reads for an analysis: the summary, then each risk's title and
 * explanation, then the clause categories found, each part a paragraph.
 */
export function analysisSpeechText(result: AnalysisResult): string {
  const clauses = [...new Set(result.clauses.map((c) => c.category))]
  return [
    result.summary.text,
    ...result.risks.map((r) => `${r.title}. ${r.explanation}`),
    clauses.length > 0 ? `Clauses found: ${clauses.join(', ')}.` : '',
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n\n')
}

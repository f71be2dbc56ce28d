import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { analysesKey, analysesQuery, createAnalysis } from './api'
import type { Analysis, AnalysisKind, AnalysisPanelState } from './types'

/** A failure's user-facing text: the problem `detail` carried by ApiError, else the message. */
function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error'
}

/**
 * Analysis state of one document: its previous analyses, the panel state (idle until the user runs
 * or opens an analysis), `run(kind)` with the spec's toasts, and `open(analysis)`.
 */
export function useDocumentAnalysis(orgId: string, documentId: string) {
  const queryClient = useQueryClient()
  const history = useQuery(analysesQuery(orgId, documentId))
  const [panel, setPanel] = useState<AnalysisPanelState>({ status: 'idle' })

  // Toasts live on the mutation (not on `mutate`) so they still fire if the user has moved on
  // to another document before the analysis finishes.
  const mutation = useMutation({
    mutationFn: (kind: AnalysisKind) => createAnalysis(orgId, documentId, kind),
    onMutate: () => {
      toast.info('Analyzing document...')
    },
    onSuccess: () => {
      toast.success('Analysis complete!')
      return queryClient.invalidateQueries({ queryKey: analysesKey(orgId, documentId) })
    },
    onError: (error) => {
      toast.error('Failed to analyze document', { description: errorText(error) })
    },
  })

  const run = (kind: AnalysisKind) => {
    setPanel({ status: 'loading' })
    mutation.mutate(kind, {
      onSuccess: (analysis) => setPanel({ status: 'ok', analysis }),
      onError: (error) => setPanel({ status: 'error', message: errorText(error) }),
    })
  }

  const open = (analysis: Analysis) => setPanel({ status: 'ok', analysis })

  return {
    panel,
    run,
    open,
    isRunning: mutation.isPending,
    analyses: history.data ?? [],
    historyStatus: history.status,
  }
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import {
  cancelJob,
  isActive,
  jobQuery,
  latestJobQuery,
  useJob,
  type Job,
} from '../../../hooks/jobs'
import { analysesQuery, createAnalysis, saveWeActFor } from '../api/analyses'
import type { Analysis, AnalysisKind, AnalysisPanelState, WeActFor } from '../api/types'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'

/** A failure's user-facing text: the problem `detail` carried by ApiError, else the message. */
function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Unknown error'
}

/**
 * What the panel shows before the user acts (on opening the document, or after a reload), from the
 * document's newest analysis job (`undefined` while it is still being asked for) and its analyses
 * (newest first): Working while the job runs; its failure when it failed after the newest analysis
 * was made; otherwise the newest analysis (issue 43: reopening a document shows its latest
 * analysis, the older ones stay under 'Previous analyses'); nothing when there is none.
 */
function stateAfterReload(
  job: Job | null | undefined,
  jobSettled: boolean,
  analyses: readonly Analysis[] | undefined,
): AnalysisPanelState {
  if (job && isActive(job)) return { status: 'loading', jobId: job.id }
  // Wait for both answers, so neither a newer analysis nor a running job is hidden by a flash of
  // the other (a failed look-up of the job counts as answered: the analyses still show).
  if (!jobSettled || !analyses) return { status: 'idle' }
  const newest = analyses[0]
  if (job?.status === 'failed') {
    const failedLater = !newest || Date.parse(job.finishedAt ?? '') > Date.parse(newest.createdAt)
    if (failedLater) return { status: 'error', message: job.error ?? 'Failed to analyze document' }
  }
  return newest ? { status: 'ok', analysis: newest } : { status: 'idle' }
}

/**
 * Analysis state of one document: its previous analyses, the panel state (until the user runs or
 * opens one: the newest analysis, or the job still running or failed since), `run(kind)` with the spec's toasts, `open(analysis)`, and for a long
 * document the background job (`job`, `cancel()`), found again after a reload: still running, or
 * failed after the newest analysis (its message is shown, as it was before the reload).
 */
export function useDocumentAnalysis(orgId: string, documentId: string) {
  const queryClient = useQueryClient()
  const history = useQuery(analysesQuery(orgId, documentId))
  const latestJobOptions = latestJobQuery(orgId, { kind: 'analysis', subjectId: documentId })
  const latestJob = useQuery(latestJobOptions)
  const [panel, setPanel] = useState<AnalysisPanelState>({ status: 'idle' })
  const shown: AnalysisPanelState =
    panel.status === 'idle'
      ? stateAfterReload(latestJob.data, latestJob.status !== 'pending', history.data)
      : panel.status === 'ok'
        ? // The list is re-read after a "we act for" change: show the re-oriented copy.
          {
            ...panel,
            analysis: history.data?.find((a) => a.id === panel.analysis.id) ?? panel.analysis,
          }
        : panel
  const jobId = shown.status === 'loading' ? shown.jobId : undefined

  // A background job ended: show its analysis, its error, or nothing if it was cancelled.
  const onJobEnd = (ended: Job) => {
    // The ended job is the newest now: an older failure must not show meanwhile.
    queryClient.setQueryData(latestJobOptions.queryKey, ended)
    void refreshAfterWrite(queryClient, ['orgs', orgId, 'jobs'])
    if (ended.status === 'cancelled') {
      toast.info('Analysis cancelled')
      setPanel({ status: 'idle' })
    } else if (ended.status === 'failed') {
      const message = ended.error ?? 'Failed to analyze document'
      toast.error('Failed to analyze document', { description: message })
      setPanel({ status: 'error', message })
    } else {
      const analysisId = ended.kind === 'analysis' ? ended.result?.analysisId : undefined
      void queryClient
        .fetchQuery({ ...analysesQuery(orgId, documentId), staleTime: 0 })
        .then((analyses) => {
          const analysis = analyses.find((a) => a.id === analysisId)
          if (!analysis) return
          toast.success('Analysis complete!')
          setPanel({ status: 'ok', analysis })
        })
    }
  }
  const job = useJob(orgId, jobId, onJobEnd)

  // Toasts live on the mutation (not on `mutate`) so they still fire if the user has moved on
  // to another document before the analysis finishes.
  const mutation = useMutation({
    mutationFn: (kind: AnalysisKind) => createAnalysis(orgId, documentId, kind),
    onMutate: () => {
      toast.info('Analyzing document...')
    },
    onError: (error) => {
      toast.error('Failed to analyze document', { description: errorText(error) })
    },
  })

  const run = (kind: AnalysisKind) => {
    setPanel({ status: 'loading' })
    mutation.mutate(kind, {
      onSuccess: (started) => setPanel({ status: 'loading', jobId: started.id }),
      onError: (error) => setPanel({ status: 'error', message: errorText(error) }),
    })
  }

  const cancel = () => {
    if (!jobId) return
    cancelJob(orgId, jobId).then(
      (cancelled) => queryClient.setQueryData(jobQuery(orgId, jobId).queryKey, cancelled),
      (error: unknown) => toast.error('Could not cancel', { description: errorText(error) }),
    )
  }

  const open = (analysis: Analysis) => setPanel({ status: 'ok', analysis })

  const weActFor = useMutation({
    mutationFn: (choice: WeActFor | null) => saveWeActFor(orgId, documentId, choice),
    // The document and its analyses (whose risks the server now orients) share this prefix.
    onSuccess: () => refreshAfterWrite(queryClient, ['orgs', orgId, 'documents', documentId]),
    onError: (error) => {
      toast.error('Could not save whom we act for', { description: errorText(error) })
    },
  })

  return {
    panel: shown,
    job,
    run,
    open,
    cancel,
    isRunning: mutation.isPending || shown.status === 'loading',
    analyses: history.data ?? [],
    historyStatus: history.status,
    chooseWeActFor: (choice: WeActFor | null) => weActFor.mutate(choice),
    savingWeActFor: weActFor.isPending,
  }
}

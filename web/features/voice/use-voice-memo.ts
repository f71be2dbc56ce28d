/**
 * The recorder's flow: idle → recording → processing → idle. Stopping releases the microphone and
 * uploads the audio (progress in percent), the server transcribes it as a background job
 * ('Transcribing audio...' → 'Transcription complete!'), and that job queues the transcript's
 * summary on the server (so a closed tab still gets it), which the page follows
 * ('Analyzing document...' → 'Analysis complete!'). Errors: 'Failed to start recording' when the
 * microphone is refused or fails, 'Not authenticated' without a session, else the server's message
 * or 'Failed to process audio'.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { ApiError } from '../../lib/api'
import { useJob, type Job } from '../../lib/jobs'
import { useRecorder } from '../../lib/use-recorder'
import type { OrgScope } from '../../lib/org-scope'
import {
  recordingQuery,
  recordingsKey,
  transcriptSummary,
  uploadRecording,
  type Analysis,
} from './api'
import { refreshAfterWrite } from '../../lib/refresh-after-write'

export type RecorderStatus = 'idle' | 'recording' | 'processing'

/** What the analysis panel shows for the latest memo (the analysis panel's states). */
export type SummaryState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ok'; analysis: Analysis }

function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.code === 'unauthenticated') return 'Not authenticated'
  return error instanceof Error && error.message ? error.message : 'Failed to process audio'
}

export function useVoiceMemo(scope: OrgScope) {
  const { orgId } = scope
  const queryClient = useQueryClient()
  const recorder = useRecorder()
  const [status, setStatus] = useState<RecorderStatus>('idle')
  const [uploadPercent, setUploadPercent] = useState<number | null>(null)
  const [message, setMessage] = useState<{
    text: string
    tone: 'info' | 'success' | 'error'
  } | null>(null)
  const [jobId, setJobId] = useState<string>()
  const [recordingId, setRecordingId] = useState<string>()
  const [summaryJobId, setSummaryJobId] = useState<string>()
  const [summary, setSummary] = useState<SummaryState>({ status: 'idle' })

  const say = (text: string, tone: 'info' | 'success' | 'error') => {
    setMessage({ text, tone })
    if (tone === 'success') toast.success(text)
    else if (tone === 'error') toast.error(text)
    else toast.info(text)
  }
  const fail = (error: unknown) => {
    say(messageOf(error), 'error')
    setStatus('idle')
    setUploadPercent(null)
  }

  const afterTranscription = async (job: Job) => {
    await refreshAfterWrite(queryClient, recordingsKey(orgId))
    if (job.status !== 'succeeded') {
      fail(new Error(job.error ?? 'Failed to process audio'))
      return
    }
    say('Transcription complete!', 'success')
    const summaryJob = job.kind === 'transcription' ? job.result?.summaryJobId : null
    if (!summaryJob) {
      setSummary({ status: 'error', message: 'No speech was recognised in this recording.' })
      setStatus('idle')
      return
    }
    say('Analyzing document...', 'info')
    setSummary({ status: 'loading' })
    setSummaryJobId(summaryJob)
  }
  const summaryFailed = (error: unknown) => {
    setSummary({ status: 'error', message: messageOf(error) || 'Failed to analyze document' })
    say(messageOf(error), 'error')
    setStatus('idle')
  }
  const afterSummary = async (ended: Job) => {
    await refreshAfterWrite(queryClient, recordingsKey(orgId))
    try {
      const analysisId = ended.kind === 'analysis' ? ended.result?.analysisId : undefined
      if (ended.status !== 'succeeded' || !analysisId || !recordingId)
        throw new Error(ended.error ?? 'Failed to analyze document')
      const recording = await queryClient.fetchQuery(recordingQuery(orgId, recordingId))
      const analysis = recording.documentId
        ? await transcriptSummary(orgId, recording.documentId, analysisId)
        : null
      if (!analysis) throw new Error('Failed to analyze document')
      setSummary({ status: 'ok', analysis })
      say('Analysis complete!', 'success')
      setStatus('idle')
    } catch (error) {
      summaryFailed(error)
    }
  }
  const job = useJob(orgId, jobId, (ended) => void afterTranscription(ended))
  useJob(orgId, summaryJobId, (ended) => void afterSummary(ended))

  const start = async () => {
    try {
      await recorder.start()
      setStatus('recording')
      setSummary({ status: 'idle' })
      say('Recording started', 'success')
    } catch {
      say('Failed to start recording', 'error')
    }
  }

  const stop = async () => {
    setStatus('processing')
    try {
      const audio = await recorder.stop()
      setUploadPercent(0)
      setSummaryJobId(undefined)
      const { recording, job: started } = await uploadRecording(scope, audio.blob, (fraction) =>
        setUploadPercent(Math.round(fraction * 100)),
      )
      setUploadPercent(null)
      setRecordingId(recording.id)
      await refreshAfterWrite(queryClient, recordingsKey(orgId))
      say('Transcribing audio...', 'info')
      setJobId(started.id)
    } catch (error) {
      fail(error)
    }
  }

  return {
    status,
    toggle: () => void (status === 'recording' ? stop() : start()),
    level: recorder.level,
    elapsed: recorder.elapsed,
    uploadPercent,
    message,
    job,
    recordingId,
    summary,
  }
}

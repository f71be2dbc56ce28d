/**
 * The recorder's flow: idle → recording → processing → idle. Stopping releases the microphone and
 * uploads the audio (progress in percent), the server transcribes it as a background job
 * ('Transcribing audio...' → 'Transcription complete!') and saves the memo's summary with it (key
 * points, decisions, action items, names, each citing its segment: decision 0056), which the
 * analysis panel then shows ('Analyzing document...' → 'Analysis complete!', the steps issue 7
 * names), the same summary a reload shows under the recording. Errors: 'Failed to start
 * recording' when the microphone is refused or fails, 'Not authenticated' without a session, else
 * the server's message or 'Failed to process audio'.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { ApiError } from '../../../lib/api'
import { useJob, type Job } from '../../../hooks/jobs'
import { useRecorder } from '../../../hooks/use-recorder'
import type { OrgScope } from '../../../lib/org-scope'
import { recordingQuery, recordingsKey, uploadRecording, type MemoSummary } from '../api/recordings'
import { refreshAfterWrite } from '../../../lib/refresh-after-write'

export type RecorderStatus = 'idle' | 'recording' | 'processing'

/**
 * What the analysis panel shows for the latest memo (the analysis panel's states): nothing, Working
 * while it is transcribed, an error, or its memo summary.
 */
export type SummaryState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ok'; recordingId: string; title: string; memo: MemoSummary }

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
    if (job.status !== 'succeeded' || job.kind !== 'transcription' || !job.result) {
      fail(new Error(job.error ?? 'Failed to process audio'))
      setSummary({ status: 'idle' })
      return
    }
    say('Transcription complete!', 'success')
    setStatus('idle')
    const { recordingId, summaryJobId, memoSummary } = job.result
    // The transcription queues no summary job when it recognised no speech.
    if (summaryJobId === null) {
      setSummary({ status: 'error', message: 'No speech was recognised in this recording.' })
      return
    }
    say('Analyzing document...', 'info')
    try {
      const recording = await queryClient.fetchQuery(recordingQuery(orgId, recordingId))
      // The job's result carries the summary; the row has it too (jobs from before decision 0056).
      const memo = memoSummary ?? recording.memoSummary
      if (!memo) throw new Error('Failed to analyze document')
      setSummary({ status: 'ok', recordingId, title: recording.title, memo })
      say('Analysis complete!', 'success')
    } catch (error) {
      const message = messageOf(error)
      setSummary({ status: 'error', message })
      say(message, 'error')
    }
  }
  const job = useJob(orgId, jobId, (ended) => void afterTranscription(ended))

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
      const { job: started } = await uploadRecording(scope, audio.blob, (fraction) =>
        setUploadPercent(Math.round(fraction * 100)),
      )
      setUploadPercent(null)
      await refreshAfterWrite(queryClient, recordingsKey(orgId))
      say('Transcribing audio...', 'info')
      setSummary({ status: 'loading' })
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
    summary,
  }
}

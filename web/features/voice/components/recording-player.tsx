import { useQuery } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { ListenButton } from '../../../components/listen-button'
import { orgSpeech } from '../../../hooks/speech'
import { cn } from '../../../lib/utils'
import { recordingAudioUrl, recordingQuery, type Recording } from '../api/recordings'
import { clock } from './clock'
import { MemoSummaryView } from './memo-summary-view'

/** A request to play `recordingId` from `start` seconds; `seq` tells a repeated request apart. */
export interface Cue {
  recordingId: string
  start: number
  seq: number
}

/**
 * One recording: its audio player and, beside it, the transcript's timed segments; the segment
 * being played is highlighted and clicking a segment plays from its start. Below them, the memo
 * summary saved with the recording, whose cited times play from their segment too, as does a
 * `cue` (a time cited elsewhere on the screen), which also scrolls the player into view. Each
 * segment shows the speech engine's confidence, a low one flagged to be checked against the audio.
 */
export function RecordingPlayer({
  orgId,
  recording,
  cue = null,
}: {
  orgId: string
  recording: Recording
  cue?: Cue | null
}) {
  const audio = useRef<HTMLAudioElement>(null)
  const [time, setTime] = useState(0)
  // Transcribed: its segments exist, also while its summary job still runs.
  const transcribed = recording.status === 'ready' || recording.status === 'summarizing'
  const detail = useQuery({ ...recordingQuery(orgId, recording.id), enabled: transcribed })
  const segments = detail.data?.segments ?? []
  const seek = (start: number) => {
    const element = audio.current
    if (!element) return
    element.currentTime = start
    void element.play().catch(() => undefined)
  }
  const play = useEffectEvent((start: number) => {
    // jsdom has no scrollIntoView.
    audio.current?.scrollIntoView?.({ block: 'center' })
    seek(start)
  })
  useEffect(() => {
    if (cue) play(cue.start)
  }, [cue])
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        {/* eslint-disable-next-line jsx-a11y/media-has-caption -- the transcript beside it is the caption */}
        <audio
          ref={audio}
          controls
          preload="metadata"
          src={recordingAudioUrl(orgId, recording.id)}
          onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
          aria-label={`Play ${recording.title}`}
          className="w-full"
        />
        <div className="flex flex-col gap-2" aria-label={`Transcript of ${recording.title}`}>
          {recording.status === 'transcribing' && (
            <p className="text-sm text-muted-foreground">Transcribing audio...</p>
          )}
          {recording.status === 'failed' && (
            <p className="text-sm text-destructive">
              {recording.error ?? 'Failed to process audio'}
            </p>
          )}
          {transcribed && segments.length === 0 && detail.isSuccess && (
            <p className="text-sm text-muted-foreground">No speech was recognised.</p>
          )}
          {segments.length > 0 && (
            <>
              <div>
                <ListenButton
                  text={detail.data?.transcript ?? ''}
                  synthesize={orgSpeech(orgId)}
                  subject="transcript"
                />
              </div>
              <ol className="flex max-h-64 flex-col gap-1 overflow-y-auto text-sm">
                {segments.map((segment) => {
                  const playing = time >= segment.start && time < segment.end
                  return (
                    <li key={segment.startOffset}>
                      <button
                        type="button"
                        onClick={() => seek(segment.start)}
                        aria-current={playing ? 'true' : undefined}
                        className={cn(
                          'w-full rounded px-2 py-1 text-left hover:bg-muted',
                          playing && 'bg-primary/15 font-medium',
                        )}
                      >
                        <span className="mr-2 font-mono text-xs text-muted-foreground">
                          {clock(segment.start)}
                        </span>
                        {segment.text}
                        {segment.confidence !== null && (
                          <span
                            className={cn(
                              'ml-2 text-xs',
                              segment.lowConfidence
                                ? 'font-medium text-destructive'
                                : 'text-muted-foreground',
                            )}
                          >
                            {segment.lowConfidence
                              ? `Low confidence (${Math.round(segment.confidence * 100)}%): check against the audio`
                              : `${Math.round(segment.confidence * 100)}% confidence`}
                          </span>
                        )}
                      </button>
                    </li>
                  )
                })}
              </ol>
            </>
          )}
        </div>
      </div>
      {/* Once its segments are read, so the summary says at once which were heard with low confidence. */}
      {recording.memoSummary && !(transcribed && detail.isPending) && (
        <MemoSummaryView
          title={recording.title}
          summary={recording.memoSummary}
          onCite={seek}
          segments={segments}
        />
      )}
    </>
  )
}

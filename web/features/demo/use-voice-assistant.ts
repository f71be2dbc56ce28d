/**
 * The demo voice assistant: idle → recording → processing (transcribe, then answer) → speaking
 * (the answer read aloud) → idle. Errors: 'Could not access microphone', 'Failed to process voice'
 * (or the server's reason for refusing the audio, e.g. over 60 seconds), 'Failed to get AI
 * response', 'Failed to generate speech' / 'Failed to play audio'.
 */
import { useState, type RefObject } from 'react'
import { ApiError } from '../../lib/api'
import { demoSpeech, mp3BlobUrl, postDemo } from '../../hooks/speech'
import { useRecorder } from '../../hooks/use-recorder'

export type AssistantStatus = 'idle' | 'recording' | 'processing' | 'speaking'

export interface AssistantAnswer {
  answer: string
  answered: boolean
  sources: { id: string; title: string }[]
}

/** The blob's bytes as base64 (without the data: prefix). */
function toBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(new Error('Failed to process voice'))
    reader.readAsDataURL(blob)
  })
}

/** The server's own message for a refused request (4xx), else `fallback`. */
function reason(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.status < 500 && error.detail ? error.detail : fallback
}

/** `audio` is the element the answer is spoken through. */
export function useVoiceAssistant(audio: RefObject<HTMLAudioElement | null>) {
  const recorder = useRecorder()
  const [status, setStatus] = useState<AssistantStatus>('idle')
  const [error, setError] = useState<string | null>(null)
  const [transcript, setTranscript] = useState<string | null>(null)
  const [answer, setAnswer] = useState<AssistantAnswer | null>(null)

  const start = async () => {
    setError(null)
    try {
      await recorder.start()
      setStatus('recording')
    } catch {
      setError('Could not access microphone')
    }
  }

  const playbackFailed = () => {
    setError('Failed to play audio')
    setStatus('idle')
  }

  const speak = async (text: string) => {
    setStatus('speaking')
    let speech: string
    try {
      speech = await demoSpeech(text)
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : 'Failed to generate speech')
      setStatus('idle')
      return
    }
    const element = audio.current
    if (!element) return playbackFailed()
    const previous = element.getAttribute('src')
    element.setAttribute('src', mp3BlobUrl(speech))
    if (previous) URL.revokeObjectURL(previous)
    // The browser's own reason (autoplay refused, format unsupported) means nothing to a visitor.
    await element.play().catch(playbackFailed)
  }

  const stop = async () => {
    setStatus('processing')
    let question: string
    try {
      const recording = await recorder.stop()
      const heard = await postDemo<{ transcript: string }>('transcribe', {
        audio: await toBase64(recording.blob),
        mimeType: recording.mimeType,
      })
      question = heard.transcript
      setTranscript(question)
    } catch (e) {
      setError(reason(e, 'Failed to process voice'))
      setStatus('idle')
      return
    }
    if (question.trim() === '') {
      setError(
        'Failed to process voice: no speech was recognised. Try again, closer to the microphone.',
      )
      setStatus('idle')
      return
    }
    try {
      const reply = await postDemo<AssistantAnswer>('answer', { question })
      setAnswer(reply)
      await speak(reply.answer)
    } catch (e) {
      setError(reason(e, 'Failed to get AI response'))
      setStatus('idle')
    }
  }

  return {
    status,
    error,
    transcript,
    answer,
    level: recorder.level,
    elapsed: recorder.elapsed,
    toggle: () => void (status === 'recording' ? stop() : start()),
    spoken: () => setStatus('idle'),
    playbackFailed,
  }
}

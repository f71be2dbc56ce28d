/**
 * Microphone recording in the browser: getUserMedia + MediaRecorder (audio/webm;codecs=opus where
 * supported), with a live input level (0–100, RMS of the analyser's samples, scaled ×300 and
 * capped at 100) and the elapsed seconds. `stop()` resolves with the recording and releases the
 * microphone (every track is stopped) and the audio context.
 */
import { useCallback, useEffect, useRef, useState } from 'react'

export interface Recording {
  blob: Blob
  mimeType: string
  seconds: number
}

/** The recorder's level (0–100) and elapsed seconds while recording; start and stop. */
export function useRecorder() {
  const [level, setLevel] = useState(0)
  const [elapsed, setElapsed] = useState(0)
  const [recording, setRecording] = useState(false)
  const session = useRef<{
    recorder: MediaRecorder
    stream: MediaStream
    context: AudioContext
    chunks: Blob[]
    startedAt: number
    frame: number
    timer: number
  } | null>(null)

  const release = useCallback(() => {
    const s = session.current
    if (!s) return
    cancelAnimationFrame(s.frame)
    clearInterval(s.timer)
    for (const track of s.stream.getTracks()) track.stop()
    void s.context.close().catch(() => undefined)
    session.current = null
    setRecording(false)
    setLevel(0)
  }, [])

  useEffect(() => release, [release])

  /** Asks for the microphone and starts recording; rejects when it is refused or fails. */
  const start = useCallback(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true })
    const mimeType = MediaRecorder.isTypeSupported('audio/webm;codecs=opus')
      ? 'audio/webm;codecs=opus'
      : ''
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined)
    const context = new AudioContext()
    const analyser = context.createAnalyser()
    analyser.fftSize = 1024
    context.createMediaStreamSource(stream).connect(analyser)
    const samples = new Float32Array(analyser.fftSize)
    const chunks: Blob[] = []
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data)
    }
    const startedAt = performance.now()
    const measure = () => {
      analyser.getFloatTimeDomainData(samples)
      let sum = 0
      for (const sample of samples) sum += sample * sample
      setLevel(Math.min(100, Math.round(Math.sqrt(sum / samples.length) * 300)))
      if (session.current) session.current.frame = requestAnimationFrame(measure)
    }
    session.current = {
      recorder,
      stream,
      context,
      chunks,
      startedAt,
      frame: 0,
      timer: window.setInterval(
        () => setElapsed(Math.floor((performance.now() - startedAt) / 1000)),
        250,
      ),
    }
    recorder.start(250)
    setElapsed(0)
    setRecording(true)
    session.current.frame = requestAnimationFrame(measure)
  }, [])

  /** Stops recording, releases the microphone and resolves with the recorded audio. */
  const stop = useCallback(async (): Promise<Recording> => {
    const s = session.current
    if (!s) throw new Error('Not recording')
    const stopped = new Promise<void>((resolve) => {
      s.recorder.onstop = () => resolve()
    })
    s.recorder.stop()
    await stopped
    const mimeType = s.recorder.mimeType || 'audio/webm'
    const seconds = (performance.now() - s.startedAt) / 1000
    release()
    return { blob: new Blob(s.chunks, { type: mimeType }), mimeType, seconds }
  }, [release])

  return { start, stop, level, elapsed, recording }
}

/** `seconds` as m:ss. */
export function formatElapsed(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}

/** Test helper: a microphone for jsdom, which has none (web/hooks/use-recorder.ts records from it). */
import { vi } from 'vitest'

/** jsdom has no microphone: a stream, a recorder and an audio graph that record one chunk. */
export function fakeMicrophone() {
  const track = { stop: vi.fn() }
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: () => Promise.resolve({ getTracks: () => [track] }) },
  })
  class FakeRecorder {
    static isTypeSupported = () => true
    mimeType = 'audio/webm;codecs=opus'
    ondataavailable: ((event: { data: Blob }) => void) | null = null
    onstop: (() => void) | null = null
    start() {}
    stop() {
      this.ondataavailable?.({ data: new Blob(['webm'], { type: this.mimeType }) })
      this.onstop?.()
    }
  }
  class FakeAudioContext {
    createAnalyser = () => ({ fftSize: 0, getFloatTimeDomainData: () => undefined })
    createMediaStreamSource = () => ({ connect: () => undefined })
    close = () => Promise.resolve()
  }
  vi.stubGlobal('MediaRecorder', FakeRecorder)
  vi.stubGlobal('AudioContext', FakeAudioContext)
}

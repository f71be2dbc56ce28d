/**
 * Voice benchmark (issue 7), on the local engines as the server runs them:
 * - transcription real-time factor on a 60-second recording: espeak-ng reads a lease clause
 *   until a minute is filled, ffmpeg cuts it to 60.0 s and encodes it as WebM/Opus (what browsers
 *   upload); RTF = wall-clock seconds of LocalTranscriber.transcribe / 60 (target ≤ 0.5);
 * - time to first audio for 500 characters of text to speech: LocalSpeaker.speak until the MP3
 *   is complete (the local engine returns it whole, so first audio = all of it), best of 3.
 */
import { LocalSpeaker } from '../server/ai/speech/local-speaker'
import { LocalTranscriber } from '../server/ai/speech/local-transcriber'
import { withAudioFile } from '../server/ai/speech/with-audio-file'
import { encodeAudio, spokenWav } from '../server/test/test-audio'
import { runProcess } from '../server/ai/speech/run-process'
import { SAMPLE_CONTRACT } from '../server/test/sample-files'
import { WorkerPool } from '../server/workers/worker-pool'

type Report = (key: string, value: number | null, unit: string, note?: string) => void

const CLAUSE =
  'The tenant shall pay the monthly rent in advance on the first day of each month. The landlord shall keep the roof and the structure in good repair.'

export async function voiceBenchmarks(report: Report) {
  const wav = await spokenWav(CLAUSE, 12)
  const minute = await runProcess(
    'ffmpeg',
    ['-v', 'error', '-f', 'wav', '-i', 'pipe:0', '-t', '60', '-f', 'wav', 'pipe:1'],
    { stdin: wav, install: 'ffmpeg', pool: null },
  )
  const webm = await encodeAudio(minute, 'webm')
  // The server's pool: as many threads as cores, shared by every program of the engines.
  const pool = new WorkerPool()
  const t0 = performance.now()
  const transcript = await withAudioFile(webm, (audio) =>
    new LocalTranscriber(pool).transcribe(audio, 'audio/webm'),
  )
  const seconds = (performance.now() - t0) / 1000
  report(
    'stt_rtf_60s',
    seconds / transcript.durationSec,
    '',
    `${seconds.toFixed(1)} s for ${transcript.durationSec.toFixed(1)} s of WebM/Opus, ${transcript.segments.length} segments; target ≤ 0.5`,
  )

  const text = SAMPLE_CONTRACT.replace(/\s+/g, ' ').slice(0, 500)
  const speaker = new LocalSpeaker(pool)
  await speaker.speak('Warm up.')
  const runs: number[] = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    await speaker.speak(text)
    runs.push(performance.now() - started)
  }
  report(
    'tts_first_audio_500_chars_ms',
    Math.min(...runs),
    'ms',
    'espeak-ng + ffmpeg MP3, best of 3',
  )
  await pool.close()
}

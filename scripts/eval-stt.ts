/**
 * Scores the configured speech-to-text engine (AI_STT_ENGINE, default local) on a folder of
 * recordings.
 *
 *   npm run eval:stt -- DIR
 *
 * Every `X.wav` in DIR that has an `X.txt` reference is transcribed; for each file, and overall,
 * it prints the word error rate (word-error-rate.ts: lower-cased, punctuation removed; overall =
 * all errors / all reference words) and the real-time factor (wall-clock seconds of
 * transcription / seconds of audio; overall = sums). Last, one JSON line
 * `{"files":…,"wer":…,"rtf":…}`. Exits 1 when DIR holds no such pair.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../server/config'
import { createTranscriber } from '../server/ai/speech/create-speech'
import { wordErrors } from './word-error-rate'
import { WorkerPool } from '../server/workers/worker-pool'

const dir = process.argv[2]
const names =
  dir && existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith('.wav'))
        .sort()
    : []
const pairs = names.filter((n) => dir && existsSync(join(dir, n.replace(/\.wav$/, '.txt'))))
if (!dir || pairs.length === 0) {
  process.stderr.write(
    `error: no X.wav with an X.txt reference in ${dir ?? '(no folder given)'}\nusage: npm run eval:stt -- DIR (the development set: ../shared/fixtures/audio/)\n`,
  )
  process.exit(1)
}

const config = loadConfig()
const pool = new WorkerPool(config.workers)
const transcriber = createTranscriber(config.ai.stt, pool)
let errors = 0
let words = 0
let seconds = 0
let audioSeconds = 0
for (const name of pairs) {
  const reference = readFileSync(join(dir, name.replace(/\.wav$/, '.txt')), 'utf8')
  const started = performance.now()
  const transcript = await transcriber.transcribe({ path: join(dir, name) }, 'audio/wav')
  const elapsed = (performance.now() - started) / 1000
  const score = wordErrors(reference, transcript.text)
  errors += score.errors
  words += score.words
  seconds += elapsed
  audioSeconds += transcript.durationSec
  const wer = score.errors / Math.max(1, score.words)
  console.log(
    `${name}: WER ${wer.toFixed(3)} (${score.errors}/${score.words}), RTF ${(elapsed / transcript.durationSec).toFixed(3)} (${elapsed.toFixed(2)} s for ${transcript.durationSec.toFixed(2)} s)\n  heard: ${transcript.text}`,
  )
}
const wer = errors / Math.max(1, words)
const rtf = seconds / Math.max(1e-9, audioSeconds)
console.log(`overall: WER ${wer.toFixed(3)} (${errors}/${words}), RTF ${rtf.toFixed(3)}`)
console.log(JSON.stringify({ files: pairs.length, wer: round(wer), rtf: round(rtf) }))
await pool.close()

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

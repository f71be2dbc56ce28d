/**
 * Parses the output of `pocketsphinx_continuous -time yes` (PocketSphinx 0.8): per utterance a
 * hypothesis line, then one line per word `word start end confidence` (seconds), framed by `<s>`
 * and `</s>`. Fillers (`<sil>`, `[NOISE]`, `++…++`) are dropped and pronunciation variants
 * (`read(2)`) lose their suffix. A segment's confidence is the mean posterior probability of its
 * words (the fourth column, 0..1).
 */
import type { TranscriptSegment } from './types'

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i

/** Whether `token` is a sentence marker or a filler rather than a word. */
function isFiller(token: string): boolean {
  return /^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(token)
}

/** The segments (one per utterance with words) of `output`, times shifted by `offsetSec`. */
export function parsePocketsphinxTimes(output: string, offsetSec: number): TranscriptSegment[] {
  const segments: TranscriptSegment[] = []
  let words: { word: string; start: number; end: number; posterior: number }[] = []
  const flush = () => {
    const first = words[0]
    const last = words.at(-1)
    if (first && last) {
      segments.push({
        start: round(first.start + offsetSec),
        end: round(last.end + offsetSec),
        text: words.map((w) => w.word).join(' '),
        confidence: meanPosterior(words.map((w) => w.posterior)),
      })
    }
    words = []
  }
  for (const line of output.split('\n')) {
    const match = WORD_LINE.exec(line.trim())
    if (!match) continue
    const [, token = '', start = '0', end = '0', posterior = '0'] = match
    if (token === '<s>') flush()
    if (token === '</s>') {
      flush()
      continue
    }
    if (isFiller(token)) continue
    words.push({
      word: token.replace(/\(\d+\)$/, ''),
      start: Number(start),
      end: Number(end),
      posterior: Number(posterior),
    })
  }
  flush()
  return segments
}

/** The mean of `posteriors`, each clamped to 0..1 (PocketSphinx may print 1.0003), to 3 places. */
function meanPosterior(posteriors: readonly number[]): number {
  const clamped = posteriors.map((p) => Math.min(1, Math.max(0, p)))
  return Math.round((clamped.reduce((sum, p) => sum + p, 0) / clamped.length) * 1000) / 1000
}

/** Seconds rounded to milliseconds. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000
}

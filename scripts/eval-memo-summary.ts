/**
 * `npm run eval:summary -- --memo [--transcripts DIR]`: memo summaries of the development clips'
 * reference transcripts (every `.txt` of DIR; default `audio/` under $LEXDESK_FIXTURES, else
 * ../shared/fixtures). The references carry no timing, so each sentence is one segment. Prints,
 * per transcript and in all, the summary lines, the share that are not copies of a transcript
 * sentence, the share that are not cut-out pieces of it, and the compression ratio (summary
 * characters / transcript characters), ending with one JSON line. Exits 1 when DIR is missing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { segmentSentences } from '../server/ai/analyzer/local/sentences'
import { summarizeMemo } from '../server/ai/memo/summarize-memo'
import { addScores, memoScores, type MemoScores } from './memo-summary-scores'

/** Runs the memo mode on the `.txt` transcripts of `dir`, printing as described above. */
export function evalMemoSummaries(dir: string): void {
  if (!existsSync(dir)) {
    process.stderr.write(
      `error: transcripts folder not found: ${dir} (the fixtures live outside the repository: pass --transcripts or set LEXDESK_FIXTURES).\nusage: npm run eval:summary -- --memo [--transcripts DIR]\n`,
    )
    process.exitCode = 1
    return
  }
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
  const all: MemoScores[] = []
  console.log(`Memo summaries: ${files.length} transcripts from ${dir}`)
  console.log(
    `${'transcript'.padEnd(24)} ${'lines'.padStart(6)} ${'copies'.padStart(7)} ${'cut-out'.padStart(8)} ${'ratio'.padStart(7)}`,
  )
  for (const file of files) {
    const transcript = readFileSync(join(dir, file), 'utf8')
    const segments = segmentSentences(transcript).map((s) => ({ start: 0, end: 0, text: s.text }))
    const scores = memoScores(transcript, summarizeMemo(segments))
    all.push(scores)
    console.log(
      `${file.padEnd(24)} ${String(scores.lines).padStart(6)} ${String(scores.copies).padStart(7)} ${String(scores.contained).padStart(8)} ${ratio(scores).toFixed(3).padStart(7)}`,
    )
  }
  const total = addScores(all)
  console.log(
    JSON.stringify({
      transcripts: files.length,
      summary_lines: total.lines,
      not_copy_share: share(total.lines - total.copies, total.lines),
      not_cut_out_share: share(total.lines - total.contained, total.lines),
      compression_ratio: round(ratio(total)),
    }),
  )
}

function ratio(scores: MemoScores): number {
  return scores.transcriptChars === 0 ? 0 : scores.summaryChars / scores.transcriptChars
}

/** null when there is nothing to share out (no summary line at all). */
function share(part: number, whole: number): number | null {
  return whole === 0 ? null : round(part / whole)
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

/**
 * Scores the local engine's summaries against reference summaries.
 *
 *   npm run eval:summary -- [--summaries JSON] [--engine local|openai]
 *   npm run eval:summary -- --memo [--transcripts DIR]   (memo summaries: eval-memo-summary.ts)
 *   npm run eval:summary -- --cuad [--contracts DIR --labels CSV]   (deal sheets: eval-deal-sheet.ts)
 *
 * The JSON is an object of entries with `original_text` and `reference_summary` (the layout of
 * the legal_summarization set, Manor & Li 2019; default `summaries/tos-summaries-dev.json` under
 * $LEXDESK_FIXTURES, else ../shared/fixtures). For each passage: ROUGE-1, ROUGE-2 and ROUGE-L F1 (Lin 2004, via
 * js-rouge, case-insensitive) of the engine's summary text, and of the lead-3 baseline (the
 * passage's first three sentences), averaged over passages; last, one JSON line. Exits 1 when the
 * file is missing. `--engine openai` scores the OpenAI-compatible model the server is configured
 * with instead of the local engine (eval-engine.ts); the JSON line names the engine and model
 * scored, and for openai how many findings were dropped for quotes not in the text.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { l as rougeL, n as rougeN } from 'js-rouge'
import { segmentSentences } from '../server/ai/analyzer/local/sentences'
import { fixturesDir, parseArgs } from './cuad-dataset'
import { evalDealSheets } from './eval-deal-sheet'
import { evalMemoSummaries } from './eval-memo-summary'
import { ENGINE_USAGE, evalAnalyzer, evalEngineName } from './eval-engine'

interface Scores {
  rouge1: number
  rouge2: number
  rougeL: number
}

const USAGE = `usage: npm run eval:summary -- [--summaries JSON] ${ENGINE_USAGE}`

const args = parseArgs(process.argv.slice(2))
if ((args.has('memo') || args.has('cuad')) && evalEngineName(args, USAGE) !== 'local') {
  process.stderr.write(
    `error: --engine openai scores reference summaries only (not --memo or --cuad).\n${USAGE}\n`,
  )
  process.exit(1)
}
if (args.has('memo')) evalMemoSummaries(args.get('transcripts') ?? join(fixturesDir(), 'audio'))
else if (args.has('cuad')) evalDealSheets(args)
else await evalReferenceSummaries()

/** The reference-summary mode: ROUGE of the engine and of lead-3 (see the top of this file). */
async function evalReferenceSummaries(): Promise<void> {
  const analyzer = evalAnalyzer(args, USAGE)
  const path = args.get('summaries') ?? join(fixturesDir(), 'summaries/tos-summaries-dev.json')
  if (!existsSync(path)) {
    process.stderr.write(
      `error: summaries file not found: ${path} (the fixtures live outside the repository: pass --summaries or set LEXDESK_FIXTURES).\n${USAGE}\n`,
    )
    process.exitCode = 1
    return
  }
  const entries = Object.values(
    JSON.parse(readFileSync(path, 'utf8')) as Record<
      string,
      { original_text?: string; reference_summary?: string }
    >,
  ).filter(
    (e) => (e.original_text ?? '').trim() !== '' && (e.reference_summary ?? '').trim() !== '',
  )

  const engine: Scores[] = []
  const lead3: Scores[] = []
  for (const entry of entries) {
    const text = entry.original_text ?? ''
    const reference = entry.reference_summary ?? ''
    engine.push(score((await analyzer.analyze(text, 'summarize')).summary.text, reference))
    const lead = segmentSentences(text)
      .slice(0, 3)
      .map((s) => s.text)
      .join(' ')
    lead3.push(score(lead, reference))
  }

  const engineMean = mean(engine)
  const leadMean = mean(lead3)
  console.log(
    `Summaries: ${entries.length} passages from ${path}, engine ${analyzer.engine} (${analyzer.model})`,
  )
  console.log(`${'F1'.padEnd(10)} ${'engine'.padStart(8)} ${'lead-3'.padStart(8)}`)
  for (const key of ['rouge1', 'rouge2', 'rougeL'] as const)
    console.log(
      `${key.padEnd(10)} ${engineMean[key].toFixed(3).padStart(8)} ${leadMean[key].toFixed(3).padStart(8)}`,
    )
  console.log(
    JSON.stringify({
      engine: analyzer.engine,
      model: analyzer.model,
      ...(analyzer.engine === 'openai' ? { dropped_unverified: analyzer.droppedUnverified() } : {}),
      passages: entries.length,
      rouge1_f1: round(engineMean.rouge1),
      rouge2_f1: round(engineMean.rouge2),
      rougeL_f1: round(engineMean.rougeL),
      lead3_rouge1_f1: round(leadMean.rouge1),
      lead3_rouge2_f1: round(leadMean.rouge2),
      lead3_rougeL_f1: round(leadMean.rougeL),
    }),
  )
}

function score(candidate: string, reference: string): Scores {
  if (candidate.trim() === '') return { rouge1: 0, rouge2: 0, rougeL: 0 }
  const options = { caseSensitive: false }
  return {
    rouge1: rougeN(candidate, reference, { ...options, n: 1 }),
    rouge2: rougeN(candidate, reference, { ...options, n: 2 }),
    rougeL: rougeL(candidate, reference, options),
  }
}

function mean(scores: readonly Scores[]): Scores {
  const total = scores.reduce(
    (sum, s) => ({
      rouge1: sum.rouge1 + s.rouge1,
      rouge2: sum.rouge2 + s.rouge2,
      rougeL: sum.rougeL + s.rougeL,
    }),
    { rouge1: 0, rouge2: 0, rougeL: 0 },
  )
  const n = Math.max(1, scores.length)
  return { rouge1: total.rouge1 / n, rouge2: total.rouge2 / n, rougeL: total.rougeL / n }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

/**
 * Scores the local analysis engine against CUAD-format labels.
 *
 *   npm run eval:cuad -- [--contracts DIR --labels CSV] [--folds K] [--engine local|openai]
 *
 * For each of the 35 CUAD clause categories: precision, recall and F1 of "clause present" at the
 * document level, then micro and macro averages; accuracy of the normalised Governing Law answer;
 * each risk type's precision and recall against the CUAD label it maps to (risk-scoring.ts) and
 * the share of risks naming a bearer; median and maximum time of the full local analysis per
 * contract; last, one JSON line (with `risk_bearer_share`, and the grounding figures of issue 48:
 * `clause_grounding`, the share of clause findings whose cited span overlaps a passage CUAD labels
 * with that category, `clause_span_recall`, the share of labelled passages overlapped by a finding
 * of their category (a passage CUAD joins from pieces with "<omitted>" counts once, recalled when
 * any of its pieces is overlapped, and grounds a finding overlapping any piece: decision 0144),
 * `clause_quote_precision`, the share of the clause findings' quoted characters
 * inside a passage labelled with their category (wide quotes lower it), `risk_grounding`, the share of risks claiming a category whose citation
 * overlaps one of its passages, and `risk_quote_precision`, the share of those risks' quoted
 * characters inside such a passage (decision 0133); see grounding.ts; and `deal_grounding`, the share of deal-sheet
 * lines whose citations overlap a passage labelled for their field, see deal-sheet-scoring.ts). With `--folds K` the clause figures are
 * held-out: each fold is scored by a model trained (thresholds included) on the other K-1 folds
 * only, and so is the deal sheet scored for `deal_grounding` (built from the held-out clauses). Risks
 * come from the committed model, and again from the held-out clauses for `risk_grounding_held_out`
 * and `risk_quote_precision_held_out`. `--breakdown` adds the error breakdown of clauses and risks
 * and, per category a risk claims, its risks, grounded ones, and of the ungrounded those claiming a
 * category the contract does not have versus those citing another sentence (decision 0140; held out
 * with `--folds`). Exits 1 when an input is missing.
 * `--engine openai` scores the OpenAI-compatible model the server is configured with instead of the
 * local engine (eval-engine.ts; not with --folds, which retrains the local model); the JSON line
 * names the engine and model scored, and for openai how many findings were dropped for quotes not
 * in the text.
 */
import { readFileSync } from 'node:fs'
import { CLAUSE_CATEGORIES, DETECTED_CATEGORIES } from '../server/ai/analyzer/shared/cuad-taxonomy'
import {
  compileClauseModel,
  scoreSentences,
  type ClauseModel,
  type CompiledClauseModel,
} from '../server/ai/analyzer/local/clauses/clause-model'
import { sentenceFeatures } from '../server/ai/analyzer/local/clauses/sentence-features'
import { documentStructure } from '../server/ai/analyzer/local/structure/document-structure'
import { addToBreakdown, breakdown, formatBreakdown, sectionOf } from './clause-error-breakdown'
import { detectClauses } from '../server/ai/analyzer/local/clauses/detect-clauses'
import { segmentSentences } from '../server/ai/analyzer/local/sentences'
import {
  assignFolds,
  corpusFromContracts,
  DEFAULT_TRAIN_OPTIONS,
  trainClauseModel,
} from './clause-trainer'
import { loadCuadFromArgs, parseArgs, type CuadContract } from './cuad-dataset'
import { normaliseJurisdiction } from './jurisdiction'
import { KEY_TERM_FIELDS, keyTermScores, scoreKeyTerms, type FieldScore } from './key-term-scoring'
import { addGrounding, grounding, locatePassages, overlapsAny } from './grounding'
import { groundDealSheet, type LineGrounding } from './deal-sheet-scoring'
import { buildDealSheet } from '../server/ai/analyzer/local/deal-sheet/build-deal-sheet'
import {
  claimedCategory,
  RISK_LABELS,
  riskBearerShare,
  riskScores,
  riskTypeRows,
  scoreRisks,
} from './risk-scoring'
import type { Clause, KeyTerms, Risk } from '../server/ai/analyzer/types'
import { assessRisks } from '../server/ai/analyzer/local/risks'
import { ENGINE_USAGE, evalAnalyzer } from './eval-engine'

const USAGE = `usage: npm run eval:cuad -- [--contracts DIR --labels CSV] [--folds K] [--breakdown] ${ENGINE_USAGE}`

interface Counts {
  tp: number
  fp: number
  fn: number
}

const args = parseArgs(process.argv.slice(2))
const folds = args.has('folds') ? Number(args.get('folds')) : 0
if (args.has('folds') && (!Number.isInteger(folds) || folds < 2)) {
  process.stderr.write(`error: --folds must be an integer of at least 2.\n${USAGE}\n`)
  process.exit(1)
}
const analyzer = evalAnalyzer(args, USAGE)
if (folds >= 2 && analyzer.engine !== 'local') {
  process.stderr.write(
    `error: --folds retrains the local clause model; it does not apply to --engine ${analyzer.engine}.\n${USAGE}\n`,
  )
  process.exit(1)
}
const contracts = loadCuadFromArgs(args, USAGE)

const times: number[] = []
let lawCorrect = 0
const keyTerms = keyTermScores()
const risks = riskScores()
const riskGrounding = grounding()
/** Each contract's labelled passages per category, located in its text once. */
const passagesOf = contracts.map((contract) => {
  const located = new Map<string, ReturnType<typeof locatePassages>>()
  return (category: string) => {
    let spans = located.get(category)
    if (!spans) {
      spans = locatePassages(contract.content, contract.clauses.get(category) ?? [])
      located.set(category, spans)
    }
    return spans
  }
})
const firstPassClauses: Clause[][] = []
const firstPassKeyTerms: KeyTerms[] = []
const showBreakdown = args.has('breakdown')
const riskBreakdown = breakdown()
/** The CUAD categories some risk claims. */
const RISK_CATEGORIES = [
  ...new Set(Object.keys(RISK_LABELS).flatMap((code) => claimedCategory(code) ?? [])),
]
/** Ungrounded risks whose category has a grounded clause finding in the same analysis. */
let risksBesideGroundedClause = 0
/**
 * Per claimed category (decision 0140): risks, grounded ones, and of the ungrounded those whose
 * category CUAD does not label in the contract at all (the rule's precision) and those citing
 * another sentence than a labelled passage of a category the contract has (the citation).
 */
const risksPerCategory = new Map<
  string,
  { count: number; grounded: number; absent: number; elsewhere: number }
>()
for (const [i, contract] of contracts.entries()) {
  const started = performance.now()
  const result = await analyzer.analyze(contract.content, 'full')
  times.push(performance.now() - started)
  const expected = normaliseJurisdiction(contract.governingLawAnswer)
  const found = normaliseJurisdiction(result.keyTerms.governingLaw?.value ?? '')
  if (expected === found) lawCorrect += 1
  scoreKeyTerms(keyTerms, contract.name, contract.answers, result.keyTerms)
  scoreRisks(risks, (category) => (contract.clauses.get(category) ?? []).length > 0, result.risks)
  const cited = result.risks.filter((risk) => !risk.absent)
  const labelled = passagesOf[i] ?? (() => [])
  addGrounding(
    riskGrounding,
    cited.map((risk) => ({
      start: risk.start,
      end: risk.end,
      category: claimedCategory(risk.code),
    })),
    labelled,
    [],
  )
  if (showBreakdown && folds < 2) addRiskBreakdown(i, result.risks, result.clauses)
  firstPassClauses[i] = result.clauses
  firstPassKeyTerms[i] = result.keyTerms
}

const clauseGrounding = grounding()
const heldOut = folds >= 2 ? heldOutClauses(contracts, folds) : null
const scoredClauses = heldOut?.clauses ?? firstPassClauses
// Risks read the detected clauses (a fallback passage, a cap clause): held out, they are assessed
// again from the held-out clauses, so that risk grounding is an out-of-fold figure too.
const heldOutRiskGrounding = grounding()
if (heldOut) {
  contracts.forEach((contract, i) => {
    const keyTerms = firstPassKeyTerms[i]
    const clauses = heldOut.clauses[i] ?? []
    if (!keyTerms) return
    const sentences = segmentSentences(contract.content)
    const risks = assessRisks(contract.content, sentences, clauses, keyTerms)
    addGrounding(heldOutRiskGrounding, riskFindings(risks), passagesOf[i] ?? (() => []), [])
    if (showBreakdown) addRiskBreakdown(i, risks, clauses)
  })
}
scoredClauses.forEach((clauses, i) =>
  addGrounding(clauseGrounding, clauses, passagesOf[i] ?? (() => []), DETECTED_CATEGORIES),
)
// The deal sheet built from the same (held-out with --folds) clauses: its lines read them.
const dealLines: LineGrounding[] = []
scoredClauses.forEach((clauses, i) => {
  const contract = contracts[i]
  const keyTerms = firstPassKeyTerms[i]
  if (!contract || !keyTerms) return
  const { content } = contract
  const sheet = buildDealSheet({ content, sentences: segmentSentences(content), clauses, keyTerms })
  dealLines.push(...groundDealSheet(sheet, passagesOf[i] ?? (() => [])))
})
const dealGrounded = dealLines.filter((l) => l.grounded).length
const scored = scoredClauses.map((clauses) => new Set(clauses.map((clause) => clause.category)))
const perCategory = CLAUSE_CATEGORIES.map((category) => {
  const counts: Counts = { tp: 0, fp: 0, fn: 0 }
  contracts.forEach((contract, i) => {
    const truth = (contract.clauses.get(category) ?? []).length > 0
    const guess = scored[i]?.has(category) ?? false
    if (truth && guess) counts.tp += 1
    else if (guess) counts.fp += 1
    else if (truth) counts.fn += 1
  })
  return { category, counts, ...prf(counts) }
})

const total = perCategory.reduce(
  (sum, row) => ({
    tp: sum.tp + row.counts.tp,
    fp: sum.fp + row.counts.fp,
    fn: sum.fn + row.counts.fn,
  }),
  { tp: 0, fp: 0, fn: 0 },
)
const micro = prf(total)
const macroF1 = perCategory.reduce((sum, row) => sum + row.f1, 0) / perCategory.length
times.sort((a, b) => a - b)
const medianMs = times[Math.floor((times.length - 1) / 2)] ?? 0
const maxMs = times[times.length - 1] ?? 0
const lawAccuracy = lawCorrect / contracts.length

console.log(
  folds >= 2
    ? `Clause presence, held-out over ${folds} folds (${contracts.length} contracts)`
    : `Clause presence, committed model (${contracts.length} contracts)`,
)
console.log(
  `${'category'.padEnd(36)} ${'P'.padStart(6)} ${'R'.padStart(6)} ${'F1'.padStart(6)}  tp/fp/fn`,
)
for (const row of perCategory) {
  const { tp, fp, fn } = row.counts
  console.log(
    `${row.category.padEnd(36)} ${fmt(row.precision)} ${fmt(row.recall)} ${fmt(row.f1)}  ${tp}/${fp}/${fn}`,
  )
}
console.log(`${'micro'.padEnd(36)} ${fmt(micro.precision)} ${fmt(micro.recall)} ${fmt(micro.f1)}`)
console.log(`${'macro F1'.padEnd(36)} ${''.padStart(13)} ${fmt(macroF1)}`)
console.log(`Governing Law accuracy (normalised answer): ${fmt(lawAccuracy)}`)
printKeyTermTable(Object.values(keyTerms))
console.log(
  `${'risk type (CUAD label)'.padEnd(56)} ${'P'.padStart(6)} ${'R'.padStart(6)}  tp/fp/fn  labelled`,
)
for (const row of riskTypeRows(risks)) {
  const label = `${row.code} (${row.category})`
  console.log(
    `${label.padEnd(56)} ${fmt(row.precision)} ${fmt(row.recall)}  ${row.tp}/${row.fp}/${row.fn}  ${row.labelled}`,
  )
}
console.log(`risks naming a bearer: ${risks.withBearer} of ${risks.risks}`)
console.log(
  `clause grounding ${fmt(share(clauseGrounding.grounded, clauseGrounding.findings))} (${clauseGrounding.grounded}/${clauseGrounding.findings}), span recall ${fmt(share(clauseGrounding.recalled, clauseGrounding.passages))} (${clauseGrounding.recalled}/${clauseGrounding.passages}), risk grounding ${fmt(share(riskGrounding.grounded, riskGrounding.findings))} (${riskGrounding.grounded}/${riskGrounding.findings})`,
)
console.log(
  `deal grounding ${fmt(share(dealGrounded, dealLines.length))} (${dealGrounded}/${dealLines.length}): ${[
    ...new Set(dealLines.map((l) => l.line)),
  ]
    .map((key) => {
      const own = dealLines.filter((l) => l.line === key)
      return `${key} ${own.filter((l) => l.grounded).length}/${own.length}`
    })
    .join(', ')}`,
)
console.log(
  `${analyzer.engine} engine (${analyzer.model}) per contract: median ${medianMs.toFixed(1)} ms, max ${maxMs.toFixed(1)} ms`,
)
if (showBreakdown) {
  const clauseBreakdown = breakdown()
  const committed = heldOut ? null : committedModel()
  contracts.forEach((contract, i) => {
    const sentences = segmentSentences(contract.content)
    const typed = documentStructure(sentences)
    const model = heldOut?.models[i] ?? committed ?? committedModel()
    const scores = scoreSentences(model, sentenceFeatures(sentences, typed))
    const column = new Map(model.names.map((name, c) => [name, c]))
    addToBreakdown(clauseBreakdown, {
      sentences: typed.map((s) => ({
        start: s.start,
        end: s.end,
        operative: s.kind === 'operative',
      })),
      passages: passagesOf[i] ?? (() => []),
      categories: DETECTED_CATEGORIES,
      section: sectionOf(typed),
      findings: scoredClauses[i] ?? [],
      probability: (s, category) => scores[s]?.[column.get(category) ?? -1] ?? 0,
      citeThreshold: (category) => model.citeThresholds[column.get(category) ?? -1] ?? 1,
    })
  })
  for (const line of formatBreakdown('clauses', clauseBreakdown)) console.log(line)
  for (const line of formatBreakdown('risks', riskBreakdown)) console.log(line)
  console.log(
    `risks: ungrounded while a clause finding of their category is grounded: ${risksBesideGroundedClause}`,
  )
  console.log(
    `${'risks per category'.padEnd(30)} ${'count'.padStart(5)} ${'grounded'.padStart(8)}  share  no such category  category present, other sentence`,
  )
  for (const [category, row] of [...risksPerCategory].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `${category.padEnd(30)} ${String(row.count).padStart(5)} ${String(row.grounded).padStart(8)} ${fmt(share(row.grounded, row.count))} ${String(row.absent).padStart(16)} ${String(row.elsewhere).padStart(33)}`,
    )
  }
}
console.log(
  JSON.stringify({
    engine: analyzer.engine,
    model: analyzer.model,
    ...(analyzer.engine === 'openai' ? { dropped_unverified: analyzer.droppedUnverified() } : {}),
    contracts: contracts.length,
    ...(folds >= 2 ? { folds } : {}),
    micro_precision: round(micro.precision),
    micro_recall: round(micro.recall),
    micro_f1: round(micro.f1),
    macro_f1: round(macroF1),
    governing_law_accuracy: round(lawAccuracy),
    ...Object.fromEntries(
      KEY_TERM_FIELDS.map((field) => [field, round(ratio(keyTerms[field]))] as const),
    ),
    risk_bearer_share: round(riskBearerShare(risks)),
    clause_grounding: round(share(clauseGrounding.grounded, clauseGrounding.findings)),
    clause_span_recall: round(share(clauseGrounding.recalled, clauseGrounding.passages)),
    clause_quote_precision: round(share(clauseGrounding.insideChars, clauseGrounding.quotedChars)),
    risk_grounding: round(share(riskGrounding.grounded, riskGrounding.findings)),
    ...(heldOut
      ? {
          risk_grounding_held_out: round(
            share(heldOutRiskGrounding.grounded, heldOutRiskGrounding.findings),
          ),
        }
      : {}),
    risk_quote_precision: round(share(riskGrounding.insideChars, riskGrounding.quotedChars)),
    ...(heldOut
      ? {
          risk_quote_precision_held_out: round(
            share(heldOutRiskGrounding.insideChars, heldOutRiskGrounding.quotedChars),
          ),
        }
      : {}),
    deal_grounding: round(share(dealGrounded, dealLines.length)),
    median_ms: round(medianMs),
    max_ms: round(maxMs),
  }),
)

/** Prints hits and misses per key-term field, with up to three miss examples each. */
function printKeyTermTable(scores: readonly FieldScore[]): void {
  console.log(`${'key term'.padEnd(28)} ${'hits'.padStart(5)} ${'misses'.padStart(6)}  score`)
  for (const score of scores) {
    const misses = score.total - score.hits
    console.log(
      `${score.field.padEnd(28)} ${String(score.hits).padStart(5)} ${String(misses).padStart(6)}  ${fmt(ratio(score))}`,
    )
    for (const miss of score.misses)
      console.log(
        `    ${miss.file.slice(0, 60)}: expected ${clip(miss.expected)}, got ${clip(miss.got)}`,
      )
  }
}

function ratio(score: FieldScore): number {
  return score.total > 0 ? score.hits / score.total : 0
}

function clip(value: string): string {
  const flat = value.replace(/\s+/g, ' ')
  return JSON.stringify(flat.length > 80 ? `${flat.slice(0, 77)}...` : flat)
}

/**
 * The clauses found in each contract by a model that never saw that contract's fold, and that
 * model (the same object for every contract of a fold).
 */
function heldOutClauses(
  all: readonly CuadContract[],
  k: number,
): { clauses: Clause[][]; models: CompiledClauseModel[] } {
  const { corpus } = corpusFromContracts(all, DETECTED_CATEGORIES)
  const foldOf = assignFolds(all.length, k, DEFAULT_TRAIN_OPTIONS.seed)
  const result: Clause[][] = all.map(() => [])
  const models: CompiledClauseModel[] = []
  for (let f = 0; f < k; f += 1) {
    const train = all.map((_, i) => i).filter((i) => foldOf[i] !== f)
    const trained = trainClauseModel(corpus, train, DETECTED_CATEGORIES, DEFAULT_TRAIN_OPTIONS)
    const model = compileClauseModel(trained)
    all.forEach((contract, i) => {
      if (foldOf[i] !== f) return
      const clauses = detectClauses(contract.content, segmentSentences(contract.content), model)
      result[i] = clauses
      models[i] = model
    })
    const { extendThreshold, extendSentences } = trained
    process.stderr.write(
      `fold ${f + 1}/${k} done (extendThreshold ${extendThreshold ?? 'none'}, extendSentences ${extendSentences ?? '-'})\n`,
    )
  }
  return { clauses: result, models }
}

/** Risks that claim a CUAD category, as grounding findings. */
function riskFindings(risks: readonly Risk[]): { start: number; end: number; category: string }[] {
  return risks.flatMap((risk) => {
    const category = risk.absent ? null : claimedCategory(risk.code)
    return category ? [{ start: risk.start, end: risk.end, category }] : []
  })
}

/**
 * Adds contract i's risks to the risk breakdown and to risksPerCategory, and counts an ungrounded
 * risk whose category has a grounded clause finding among `clauses` (the risk cited another
 * sentence than the clause's).
 */
function addRiskBreakdown(i: number, risks: readonly Risk[], clauses: readonly Clause[]): void {
  const contract = contracts[i]
  if (!contract) return
  const labelled = passagesOf[i] ?? (() => [])
  const findings = riskFindings(risks)
  const typed = documentStructure(segmentSentences(contract.content))
  addToBreakdown(riskBreakdown, {
    section: sectionOf(typed),
    sentences: typed.map((s) => ({
      start: s.start,
      end: s.end,
      operative: s.kind === 'operative',
    })),
    passages: labelled,
    categories: RISK_CATEGORIES,
    findings,
  })
  for (const finding of findings) {
    const row = risksPerCategory.get(finding.category) ?? {
      count: 0,
      grounded: 0,
      absent: 0,
      elsewhere: 0,
    }
    risksPerCategory.set(finding.category, row)
    row.count += 1
    if (overlapsAny(finding, labelled(finding.category))) {
      row.grounded += 1
      continue
    }
    if ((contract.clauses.get(finding.category) ?? []).length === 0) row.absent += 1
    else row.elsewhere += 1
    const clauseGrounded = clauses.some(
      (c) => c.category === finding.category && overlapsAny(c, labelled(c.category)),
    )
    if (clauseGrounded) risksBesideGroundedClause += 1
  }
}

/** The committed clause model (what detectClauses uses by default), read from model.json. */
function committedModel(): CompiledClauseModel {
  const url = new URL('../server/ai/analyzer/local/clauses/model.json', import.meta.url)
  return compileClauseModel(JSON.parse(readFileSync(url, 'utf8')) as ClauseModel)
}

/** `part` of `whole`, 0 when there is nothing to count. */
function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0
}

/** Precision, recall, F1; an empty denominator counts as perfect only when nothing was missed. */
function prf({ tp, fp, fn }: Counts): { precision: number; recall: number; f1: number } {
  const precision = tp + fp > 0 ? tp / (tp + fp) : fn === 0 ? 1 : 0
  const recall = tp + fn > 0 ? tp / (tp + fn) : fp === 0 ? 1 : 0
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
  return { precision, recall, f1 }
}

function fmt(value: number): string {
  return value.toFixed(3).padStart(6)
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

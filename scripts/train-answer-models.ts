/**
 * Trains and scores the answer models of decision 0130 on the search caches of
 * scripts/nli-candidates.ts (ContractNLI dev.json and train-extra.json):
 *
 *   npm run train:answers -- --cache DEV.json --cache EXTRA.json [--write | --write-polarity]
 *
 * - the passage relevance model (server/ai/chat/passage-relevance.ts): a passage of the search's
 *   candidates is positive when it overlaps a gold evidence span of its question;
 * - the answer model (server/ai/chat/answer-model.ts): whether the NDA addresses the question at
 *   all, and whether it says yes, from the rule's reading and the relevance model's view of the
 *   passages shown;
 * - the polarity model (server/ai/chat/polarity-model.ts, decision 0134): whether the deciding
 *   clause says Yes or No, from its reading only, trained on every decided pair
 *   (POLARITY_ON=evidence: only those whose deciding clause is gold evidence).
 * Every figure printed is out of fold: NDAs are split into FOLDS groups, each scored by models
 * trained on the others (the relevance model first, then the answer and polarity models on
 * out-of-fold relevance), per file. It prints the errors left (by hypothesis and by kind), then
 * retrieval and answer figures before → after, ending with one JSON line. `--write` then trains
 * all three on every NDA and writes the model files; `--write-polarity` only the polarity model. Knobs (environment): POLARITY_CONFIDENCE
 * (1.01 = the rule's polarity), POLARITY_BALANCE, POLARITY_ON, YES_MODEL (score 0130's yes
 * model instead), DUMP=FILE (each decided pair's reading and polarity features, for reading
 * errors; it holds fixture text, so keep it outside the repository). Exits 1 without a cache.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import type { CachedHit, CachedPair, NliCandidates } from './nli-cache'
import { fitLogistic, predictLogistic } from './logistic-regression'
import {
  RELEVANCE_FEATURES,
  relevanceFeatures,
  relevanceQuestion,
} from '../server/ai/chat/passage-relevance'
import { legalTerms } from '../server/search/legal-lexicon'
import {
  PRIOR_WEIGHT,
  decideYesNo,
  readByRule,
  type YesNoDecision,
} from '../server/ai/chat/decide-yes-no'
import {
  ANSWER_FEATURES,
  answerFeatures,
  relevanceOfPassages,
} from '../server/ai/chat/answer-model'
import { readYesNoQuestion } from '../server/ai/chat/yes-no-question'
import {
  POLARITY_FEATURES,
  learnedPolarity,
  polarityFeatures,
  readingDirection,
} from '../server/ai/chat/polarity-model'

const FOLDS = 5
/** Passages the assistant reads (PASSAGES_PER_ANSWER). */
const SHOWN = 5

const caches = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--cache' ? [a] : []))
if (caches.length === 0) {
  process.stderr.write(
    'usage: npm run train:answers -- --cache DEV.json [--cache EXTRA.json] [--write]\n',
  )
  process.exit(1)
}

interface Pair extends CachedPair {
  file: string
  fold: number
}

const pairs: Pair[] = []
for (const path of caches) {
  const cache = JSON.parse(readFileSync(path, 'utf8')) as NliCandidates
  const file = path.replace(/^.*\//, '').replace(/-cache\.json$|\.json$/, '')
  const ndas = [...new Set(cache.pairs.map((p) => p.nda))].sort((a, b) => a - b)
  const foldOf = new Map(ndas.map((nda, i) => [nda, i % FOLDS]))
  for (const p of cache.pairs) pairs.push({ ...p, file, fold: foldOf.get(p.nda)! })
}
const files = [...new Set(pairs.map((p) => p.file))]

const overlaps = (hit: { start: number; end: number }, span: [number, number]) =>
  hit.start < span[1] && span[0] < hit.end
const isEvidence = (pair: Pair, hit: CachedHit) => pair.evidence.some((s) => overlaps(hit, s))

// ---------------------------------------------------------------- relevance model, out of fold
const questions = new Map(pairs.map((p) => [p.question, relevanceQuestion(p.question, legalTerms)]))
const poolFeatures = pairs.map((p) =>
  relevanceFeatures(
    questions.get(p.question)!,
    p.pool.map((h, rank) => ({ content: h.content, rank })),
  ),
)

function trainRelevance(train: (p: Pair) => boolean): number[] {
  const rows: number[][] = []
  const labels: number[] = []
  pairs.forEach((p, i) => {
    if (!train(p) || p.evidence.length === 0) return
    p.pool.forEach((h, j) => {
      rows.push(poolFeatures[i]![j]!)
      labels.push(isEvidence(p, h) ? 1 : 0)
    })
  })
  return fitLogistic(rows, labels, { l2: 1e-3, iterations: 300, learningRate: 0.5 })
}

const relevanceByFold = Array.from({ length: FOLDS }, (_, f) => trainRelevance((p) => p.fold !== f))
/** Out-of-fold relevance of each pool passage. */
const poolRelevance = pairs.map((p, i) =>
  poolFeatures[i]!.map((f) => predictLogistic(relevanceByFold[p.fold]!, f)),
)
/** The pool reranked by out-of-fold relevance, cut to SHOWN. */
const reranked = pairs.map((p, i) =>
  p.pool
    .map((h, j) => ({ h, r: poolRelevance[i]![j]! }))
    .sort((a, b) => b.r - a.r)
    .slice(0, SHOWN)
    .map((x) => x.h),
)

// ---------------------------------------------------------------- scoring
const LABEL: Record<YesNoDecision, string> = {
  yes: 'Entailment',
  no: 'Contradiction',
  'not-addressed': 'NotMentioned',
}

interface Outcome {
  predicted: string
  cited: CachedHit | null
}

function scores(subset: number[], outcomes: Outcome[]) {
  let right = 0
  let gold = 0
  let covered = 0
  const count = new Map<string, number>()
  for (const i of subset) {
    const p = pairs[i]!
    const o = outcomes[i]!
    if (o.predicted === p.choice) right += 1
    count.set(`${p.choice}>${o.predicted}`, (count.get(`${p.choice}>${o.predicted}`) ?? 0) + 1)
    if (p.choice === 'NotMentioned') continue
    for (const span of p.evidence) {
      gold += 1
      if (o.cited && overlaps(o.cited, span)) covered += 1
    }
  }
  const c = (g: string | null, pr: string | null) =>
    [...count].reduce((s, [k, v]) => {
      const [a, b] = k.split('>')
      return (g === null || a === g) && (pr === null || b === pr) ? s + v : s
    }, 0)
  const f1 = (l: string) => {
    const tp = c(l, l)
    const prec = tp / Math.max(c(null, l), 1)
    const rec = tp / Math.max(c(l, null), 1)
    return prec + rec === 0 ? 0 : (2 * prec * rec) / (prec + rec)
  }
  const r = (x: number) => Number(x.toFixed(3))
  return {
    accuracy: r(right / Math.max(subset.length, 1)),
    entailment_f1: r(f1('Entailment')),
    contradiction_f1: r(f1('Contradiction')),
    not_mentioned_f1: r(f1('NotMentioned')),
    evidence_recall: r(covered / Math.max(gold, 1)),
  }
}

/** Share of gold spans overlapped by any of `hits` (per span, pooled), over answered pairs. */
function spanRecall(subset: number[], hitsOf: (i: number) => CachedHit[]): number {
  let gold = 0
  let found = 0
  for (const i of subset) {
    const p = pairs[i]!
    if (p.choice === 'NotMentioned') continue
    for (const span of p.evidence) {
      gold += 1
      if (hitsOf(i).some((h) => overlaps(h, span))) found += 1
    }
  }
  return Number((found / Math.max(gold, 1)).toFixed(3))
}

const asPassages = (hits: CachedHit[]) =>
  hits.map((h, i) => ({ n: i + 1, title: 'NDA', content: h.content }))

function ruleOutcome(question: string, hits: CachedHit[]): Outcome {
  const answer = decideYesNo(question, asPassages(hits), null)
  if (!answer) throw new Error(`not a yes/no question: ${question}`)
  return {
    predicted: LABEL[answer.decision],
    cited: answer.passage ? hits[answer.passage.n - 1]! : null,
  }
}

const before = pairs.map((p) => ruleOutcome(p.question, p.shown))
const rerankedRule = pairs.map((p, i) => ruleOutcome(p.question, reranked[i]!))

// ---------------------------------------------------------------- answer model, out of fold
/** What the rule reads in the reranked passages, and the answer features (fold's relevance). */
const priorWeight = Number(process.env.PRIOR_WEIGHT ?? PRIOR_WEIGHT)
const shownRelevance = pairs.map((p, i) =>
  relevanceOfPassages(p.question, asPassages(reranked[i]!), {
    features: RELEVANCE_FEATURES,
    weights: relevanceByFold[p.fold]!,
  }),
)
const reads = pairs.map((p, i) =>
  readByRule(
    readYesNoQuestion(p.question)!,
    asPassages(reranked[i]!),
    shownRelevance[i],
    priorWeight,
  ),
)
const answerRows = pairs.map((_, i) => answerFeatures(reads[i]!, shownRelevance[i]!))

function trainAnswer(train: (p: Pair) => boolean) {
  const a: number[][] = []
  const al: number[] = []
  const y: number[][] = []
  const yl: number[] = []
  pairs.forEach((p, i) => {
    if (!train(p) || reads[i]!.polarity === null) return
    a.push(answerRows[i]!)
    al.push(p.choice === 'NotMentioned' ? 0 : 1)
    if (p.choice === 'NotMentioned') return
    y.push(forYes(answerRows[i]!))
    yl.push(p.choice === 'Entailment' ? 1 : 0)
  })
  const options = { l2: 1e-3, iterations: 400, learningRate: 0.5 }
  return { addressed: fitLogistic(a, al, options), yes: fitLogistic(y, yl, options) }
}

/** Features the yes model does not see (their weights stay 0). */
const YES_DROP = new Set(
  (
    process.env.YES_DROP ??
    'held-terms,top-relevance,max-relevance,deciding-relevance,deciding-rank,rule-relevance,rule-decided'
  )
    .split(',')
    .filter(Boolean),
)
const forYes = (row: number[]) => row.map((x, j) => (YES_DROP.has(ANSWER_FEATURES[j]!) ? 0 : x))
const KEEP = Number(process.env.KEEP ?? 0)
/** Addressed when the model says so, or when the rule decided and the model is above KEEP. */
const addressedBy = (ruleDecided: boolean, p: number) => p >= 0.5 || (ruleDecided && p >= KEEP)
const FLIP = Number(process.env.FLIP ?? 1.01)
/** The rule's polarity unless the yes model is at least FLIP sure of the other. */
const yesByModel = (ruleYes: boolean, p: number) => (ruleYes ? p > 1 - FLIP : p >= FLIP)
const answerByFold = Array.from({ length: FOLDS }, (_, f) => trainAnswer((p) => p.fold !== f))

// ---------------------------------------------------------------- polarity model (0134)
const polarityRows = reads.map((r) => polarityFeatures(r))
/** Train only on clauses that are gold evidence (POLARITY_ON=evidence) or on every decided one. */
const POLARITY_ON = process.env.POLARITY_ON ?? 'all'
function trainPolarity(train: (p: Pair) => boolean): number[] {
  const rows: number[][] = []
  const labels: number[] = []
  pairs.forEach((p, i) => {
    const read = reads[i]!
    if (!train(p) || !read.deciding || p.choice === 'NotMentioned') return
    if (POLARITY_ON === 'evidence' && !isEvidence(p, reranked[i]![read.deciding.passage.n - 1]!))
      return
    rows.push(polarityRows[i]!)
    labels.push(p.choice === 'Entailment' ? 1 : 0)
  })
  // Contradiction is the rarer class (about one decided pair in six): BALANCE weighs it up.
  const balance = Number(process.env.POLARITY_BALANCE ?? 1)
  return fitLogistic(rows, labels, {
    l2: 1e-3,
    iterations: 400,
    learningRate: 0.5,
    sampleWeights: labels.map((l) => (l === 0 ? balance : 1)),
  })
}
const polarityByFold = Array.from({ length: FOLDS }, (_, f) => trainPolarity((p) => p.fold !== f))
/** How sure the polarity model must be to overrule the rule (POLARITY_CONFIDENCE; 1.01 = never). */
const POLARITY_CONFIDENCE = Number(process.env.POLARITY_CONFIDENCE ?? 0.55)
const polarityOf = (i: number) =>
  learnedPolarity(
    reads[i]!,
    { features: POLARITY_FEATURES, weights: polarityByFold[pairs[i]!.fold]! },
    POLARITY_CONFIDENCE,
  )
const learned: Outcome[] = pairs.map((p, i) => {
  const read = reads[i]!
  const m = answerByFold[p.fold]!
  if (!read.deciding || read.polarity === null) return { predicted: 'NotMentioned', cited: null }
  const f = answerRows[i]!
  const predicted = !addressedBy(
    read.ruleDecision !== 'not-addressed',
    predictLogistic(m.addressed, f),
  )
    ? 'NotMentioned'
    : process.env.YES_MODEL
      ? yesByModel(read.polarity === 'yes', predictLogistic(m.yes, forYes(f)))
        ? 'Entailment'
        : 'Contradiction'
      : polarityOf(i) === 'yes'
        ? 'Entailment'
        : 'Contradiction'
  return {
    predicted,
    cited: predicted === 'NotMentioned' ? null : reranked[i]![read.deciding.passage.n - 1]!,
  }
})

// ---------------------------------------------------------------- error breakdown (learned answers)
function breakdown(
  subset: number[],
  outcomes: Outcome[],
  shownOf: (i: number) => CachedHit[],
): void {
  const kinds = new Map<string, Map<string, number>>()
  const add = (key: string, kind: string) => {
    const m = kinds.get(key) ?? new Map<string, number>()
    m.set(kind, (m.get(kind) ?? 0) + 1)
    kinds.set(key, m)
  }
  for (const i of subset) {
    const p = pairs[i]!
    const o = outcomes[i]!
    if (o.predicted === p.choice) continue
    const retrieved = shownOf(i).some((h) => isEvidence(p, h))
    let kind: string
    if (p.choice === 'NotMentioned') kind = `answered ${o.predicted} when the NDA is silent`
    else if (o.predicted === 'NotMentioned')
      kind = retrieved
        ? 'Not addressed, evidence among the passages'
        : 'Not addressed, evidence not retrieved'
    else if (o.cited && isEvidence(p, o.cited)) kind = 'wrong polarity read from the evidence'
    else kind = 'wrong polarity from a passage that is not the evidence'
    add(p.key, `${p.choice}>${o.predicted}: ${kind}`)
    add('all', kind)
  }
  for (const [key, m] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
    const q = pairs.find((p) => p.key === key)?.question ?? ''
    console.log(`  ${key.padEnd(7)} ${q}`)
    for (const [kind, n] of [...m].sort((a, b) => b[1] - a[1]))
      console.log(`          ${String(n).padStart(4)}  ${kind}`)
  }
}

const subsetOf = (file: string) => pairs.flatMap((p, i) => (p.file === file ? [i] : []))
const report: Record<string, unknown> = {}
for (const file of files) {
  const subset = subsetOf(file)
  console.log(
    `\n=== ${file}: ${subset.length} pairs, errors of the learned answers, by hypothesis and kind`,
  )
  breakdown(subset, learned, (i) => reranked[i]!)
  const figures = {
    retrieval_recall_at_5: {
      before: spanRecall(subset, (i) => pairs[i]!.shown),
      pool_top5: spanRecall(subset, (i) => pairs[i]!.pool.slice(0, SHOWN)),
      reranked: spanRecall(subset, (i) => reranked[i]!),
      pool_all: spanRecall(subset, (i) => pairs[i]!.pool),
    },
    rule_before: scores(subset, before),
    rule_on_reranked: scores(subset, rerankedRule),
    learned_on_reranked: scores(subset, learned),
  }
  console.log(JSON.stringify(figures, null, 1))
  report[file] = figures
}

if (process.argv.includes('--write')) {
  const weights = trainRelevance(() => true)
  writeFileSync(
    'server/ai/chat/passage-relevance-model.json',
    `${JSON.stringify({ features: RELEVANCE_FEATURES, weights: weights.map((w) => Number(w.toFixed(5))) })}\n`,
  )
  console.log('wrote server/ai/chat/passage-relevance-model.json')
  const answer = trainAnswer(() => true)
  const named = (w: number[]) => ({
    features: ANSWER_FEATURES,
    weights: w.map((x) => Number(x.toFixed(5))),
  })
  writeFileSync(
    'server/ai/chat/answer-model.json',
    `${JSON.stringify({ addressed: named(answer.addressed), yes: named(answer.yes) })}\n`,
  )
  console.log('wrote server/ai/chat/answer-model.json')
}
if (process.argv.includes('--write') || process.argv.includes('--write-polarity')) {
  const weights = trainPolarity(() => true).map((w) => Number(w.toFixed(5)))
  writeFileSync(
    'server/ai/chat/polarity-model.json',
    `${JSON.stringify({ features: POLARITY_FEATURES, weights, confidence: POLARITY_CONFIDENCE })}\n`,
  )
  console.log('wrote server/ai/chat/polarity-model.json')
}
console.log(JSON.stringify(report))
if (process.env.DUMP) {
  const rows = pairs.flatMap((p, i) => {
    const read = reads[i]!
    if (!read.deciding) return []
    const cited = reranked[i]![read.deciding.passage.n - 1]!
    return [
      {
        file: p.file,
        key: p.key,
        nda: p.nda,
        gold: p.choice,
        predicted: learned[i]!.predicted,
        rule: read.polarity,
        evidence: isEvidence(p, cited),
        direction: readingDirection(read),
        sentence: read.deciding.sentence,
        f: Object.fromEntries(POLARITY_FEATURES.map((n, j) => [n, polarityRows[i]![j]])),
      },
    ]
  })
  writeFileSync(process.env.DUMP, JSON.stringify(rows, null, 1))
}

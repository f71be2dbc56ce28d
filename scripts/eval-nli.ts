/**
 * Yes/no answer evaluation on a ContractNLI-format file (Koreeda & Manning, "ContractNLI",
 * Findings of EMNLP 2021):
 *
 *   npm run eval:nli -- FILE [--engine local|openai]   (e.g. ../shared/fixtures/contract-nli/dev.json)
 *
 * For each NDA it indexes the NDA's text as the product does (server/search/chunk-text.ts, the
 * configured embedder, in-memory PGlite), asks each hypothesis as a yes/no question limited to
 * that NDA (hybrid search scoped to the document, then the assistant's rule in
 * server/ai/chat/decide-yes-no.ts), maps Yes → Entailment, No → Contradiction, Not addressed →
 * NotMentioned, and prints accuracy, per-class F1 and evidence recall (the share of gold evidence
 * spans overlapped by the cited passage) and the misclassified pairs per hypothesis (to read the
 * errors by kind), ending with one JSON line. Exits 1 when FILE is missing. `--engine openai`
 * decides with the OpenAI-compatible chat model the server is configured with (OpenAIChat.decide,
 * structured output, its quotes verified; eval-engine.ts) instead of the rule; the JSON line names
 * the engine and model scored, and for openai how many decisions were dropped for quotes not in
 * their passage.
 *
 *   npm run eval:nli -- FILE --unscoped
 *
 * measures instead what a question naming its NDA gets without a chosen scope (issue 48): every
 * NDA is indexed first (titled "NDA <id>"), each hypothesis is asked as "Under NDA <id>, …?"
 * through the chat route's own steps (findNamedDocuments, passagesForQuestion's search, the local
 * engine, citationsOf), and it prints the share of cited passages that come from another document
 * (`foreign_quote_share`) beside the accuracy of the answers.
 */
import { indexEvalDocument } from './index-eval-document'
import { openEvalCorpus } from './open-eval-corpus'
import { asQuestion } from './nli-question'
import { chunkText } from '../server/search/chunk-text'
import { hybridSearch } from '../server/search/hybrid-search'
import { PASSAGES_PER_ANSWER, findNamedDocuments } from '../server/features/assistant/service'
import { LocalChat } from '../server/ai/chat/local-chat'
import { withoutDocumentLead } from '../server/ai/chat/yes-no-question'
import { decideYesNo, type YesNoDecision } from '../server/ai/chat/decide-yes-no'
import type { ChatPassage } from '../server/ai/chat/types'
import { parseArgs } from './cuad-dataset'
import { ENGINE_USAGE, evalChat, evalEngineName } from './eval-engine'

const CLASSES = ['Entailment', 'Contradiction', 'NotMentioned'] as const
type Label = (typeof CLASSES)[number]
const LABEL_OF: Record<YesNoDecision, Label> = {
  yes: 'Entailment',
  no: 'Contradiction',
  'not-addressed': 'NotMentioned',
}

const USAGE = `usage: npm run eval:nli -- FILE ${ENGINE_USAGE}`
const engineName = evalEngineName(parseArgs(process.argv.slice(2)), USAGE)
const model = engineName === 'openai' ? evalChat(USAGE) : null
let droppedUnverified = 0

/** The engine's decision and the number of the passage that decided it (null when none). */
async function decide(
  question: string,
  passages: ChatPassage[],
): Promise<{ decision: YesNoDecision; passage: number | null }> {
  if (model) {
    const answer = await model.decide(question, passages)
    droppedUnverified += answer.droppedUnverified
    return { decision: answer.decision, passage: answer.deciding?.passage.n ?? null }
  }
  const answer = decideYesNo(question, passages)
  if (!answer) throw new Error(`not read as a yes/no question: ${question}`)
  return { decision: answer.decision, passage: answer.passage?.n ?? null }
}

const { data, db, embedder, principal, close } = await openEvalCorpus('eval:nli')

if (process.argv.includes('--unscoped')) {
  await unscoped()
  await close()
  process.exit(0)
}

const confusion = new Map<string, number>()
/** Misclassified pairs per hypothesis ("gold>predicted" → count), to read errors by kind. */
const errorsByHypothesis = new Map<string, Map<string, number>>()
let pairs = 0
let correct = 0
let goldSpans = 0
let coveredSpans = 0
const started = performance.now()
for (const nda of data.documents) {
  const chunks = chunkText(nda.text)
  const documentId = await indexEvalDocument(db, embedder, principal, nda, chunks)
  for (const [key, annotation] of Object.entries(nda.annotation_sets[0]?.annotations ?? {})) {
    const hypothesis = data.labels[key]?.hypothesis
    if (!hypothesis) continue
    const question = asQuestion(hypothesis)
    const hits = await hybridSearch(db, embedder, principal, {
      text: question,
      k: PASSAGES_PER_ANSWER,
      scope: { documentIds: [documentId] },
    })
    const passages = hits.map((h, i) => ({ n: i + 1, title: h.documentTitle, content: h.content }))
    const answer = await decide(question, passages)
    const predicted = LABEL_OF[answer.decision]
    const gold = annotation.choice as Label
    pairs += 1
    if (predicted === gold) correct += 1
    confusion.set(`${gold}>${predicted}`, (confusion.get(`${gold}>${predicted}`) ?? 0) + 1)
    if (predicted !== gold) {
      const errors = errorsByHypothesis.get(key) ?? new Map<string, number>()
      errors.set(`${gold}>${predicted}`, (errors.get(`${gold}>${predicted}`) ?? 0) + 1)
      errorsByHypothesis.set(key, errors)
    }
    if (gold === 'NotMentioned') continue
    const cited = answer.passage ? hits[answer.passage - 1] : undefined
    for (const index of annotation.spans) {
      const span = nda.spans[index]
      if (!span) continue
      goldSpans += 1
      if (cited && cited.start < span[1] && span[0] < cited.end) coveredSpans += 1
    }
  }
}

const count = (gold: Label | null, predicted: Label | null) =>
  [...confusion].reduce((sum, [k, v]) => {
    const [g, p] = k.split('>')
    return (gold === null || g === gold) && (predicted === null || p === predicted) ? sum + v : sum
  }, 0)
const round = (x: number) => Number(x.toFixed(4))
const f1 = (label: Label) => {
  const tp = count(label, label)
  const precision = tp / Math.max(count(null, label), 1)
  const recall = tp / Math.max(count(label, null), 1)
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
}
console.log(
  `engine ${model?.id ?? 'local:rules'}, embedder ${embedder.id}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
console.log(`gold \\ predicted  ${CLASSES.join('  ')}`)
for (const gold of CLASSES)
  console.log(
    `${gold.padEnd(15)} ${CLASSES.map((p) => String(count(gold, p)).padStart(10)).join(' ')}`,
  )
console.log('errors by hypothesis (gold>predicted):')
for (const [key, errors] of [...errorsByHypothesis].sort(([a], [b]) => a.localeCompare(b)))
  console.log(
    `  ${key.padEnd(7)} ${[...errors].map(([k, v]) => `${k} ${v}`).join(', ')} | ${data.labels[key]?.hypothesis ?? ''}`,
  )
const scores = Object.fromEntries(CLASSES.map((c) => [c, round(f1(c))]))
for (const c of CLASSES) console.log(`F1 ${c}: ${scores[c]?.toFixed(3)}`)
console.log(`accuracy: ${(correct / Math.max(pairs, 1)).toFixed(3)}`)
console.log(`evidence recall: ${(coveredSpans / Math.max(goldSpans, 1)).toFixed(3)}`)
console.log(
  JSON.stringify({
    engine: engineName,
    model: model?.id.replace(/^openai:/, '') ?? 'rules',
    ...(model ? { dropped_unverified: droppedUnverified } : {}),
    pairs,
    accuracy: round(correct / Math.max(pairs, 1)),
    entailment_f1: scores.Entailment,
    contradiction_f1: scores.Contradiction,
    not_mentioned_f1: scores.NotMentioned,
    evidence_recall: round(coveredSpans / Math.max(goldSpans, 1)),
  }),
)
await close()

/** The --unscoped mode: questions naming their NDA, no scope chosen (see the header). */
async function unscoped(): Promise<void> {
  const round = (x: number) => Number(x.toFixed(4))
  const started = performance.now()
  const ids = new Map<number, string>()
  for (const nda of data.documents)
    ids.set(nda.id, await indexEvalDocument(db, embedder, principal, nda, chunkText(nda.text)))
  const chat = new LocalChat()
  let asked = 0
  let right = 0
  let quotes = 0
  let foreign = 0
  for (const nda of data.documents) {
    for (const [key, annotation] of Object.entries(nda.annotation_sets[0]?.annotations ?? {})) {
      const hypothesis = data.labels[key]?.hypothesis
      if (!hypothesis) continue
      const plain = asQuestion(hypothesis)
      const question = `Under NDA ${nda.id}, ${plain[0]!.toLowerCase()}${plain.slice(1)}`
      const named = await findNamedDocuments(db, principal, question)
      const scope = named?.length === 1 ? [named[0]!.id] : undefined
      const hits =
        named && named.length > 1
          ? []
          : await hybridSearch(db, embedder, principal, {
              text: scope ? withoutDocumentLead(question) : question,
              k: PASSAGES_PER_ANSWER,
              scope: { documentIds: scope },
            })
      const passages = hits.map((h, i) => ({
        n: i + 1,
        title: h.documentTitle,
        content: h.content,
        documentId: h.documentId,
      }))
      let answer = ''
      for await (const delta of chat.answer([{ role: 'user', content: question }], passages))
        answer += delta
      const cited = new Set([...answer.matchAll(/\[(\d{1,3})\]/g)].map((m) => Number(m[1])))
      for (const n of cited) {
        const hit = hits[n - 1]
        if (!hit) continue
        quotes += 1
        if (hit.documentId !== ids.get(nda.id)) foreign += 1
      }
      // "Not addressed" before "No" (it starts with it).
      const lead = answer.startsWith('Not addressed')
        ? 'NotMentioned'
        : answer.startsWith('Yes')
          ? 'Entailment'
          : answer.startsWith('No')
            ? 'Contradiction'
            : null
      asked += 1
      if (lead === annotation.choice) right += 1
    }
  }
  console.log(`engine ${embedder.id}, ${((performance.now() - started) / 1000).toFixed(1)} s`)
  console.log(
    JSON.stringify({
      pairs: asked,
      accuracy: round(right / Math.max(asked, 1)),
      quotes,
      foreign_quote_share: round(foreign / Math.max(quotes, 1)),
    }),
  )
}

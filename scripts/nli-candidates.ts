/**
 * The passages the product's search finds for each ContractNLI hypothesis, written to a JSON file
 * so that the answer models can be trained and scored without searching again
 * (scripts/train-answer-models.ts, decision 0130):
 *
 *   npm run nli:candidates -- FILE --out CACHE.json   (FILE e.g. ../shared/fixtures/contract-nli/dev.json)
 *
 * Each NDA is indexed as eval:nli indexes it (chunkText passages, the configured embedder, an
 * in-memory PGlite); each hypothesis, asked as eval:nli asks it, is searched twice through
 * hybridSearch: with k = PASSAGES_PER_ANSWER (what the assistant reads today, so a replay of the
 * rule on them reproduces eval:nli) and with k = POOL (the candidates a reranker may choose
 * from). The cache holds passage offsets and text, the gold label and the gold evidence offsets;
 * it is derived from the fixture and stays outside the repository. Exits 1 when FILE or --out is
 * missing.
 */
import { writeFileSync } from 'node:fs'
import { indexEvalDocument } from './index-eval-document'
import { openEvalCorpus } from './open-eval-corpus'
import { asQuestion } from './nli-question'
import { chunkText } from '../server/search/chunk-text'
import { hybridSearch, type PassageHit } from '../server/search/hybrid-search'
import { PASSAGES_PER_ANSWER } from '../server/features/assistant/service'
import type { NliCandidates } from './nli-cache'

/** Candidates searched per question for the reranker. */
const POOL = 20

const outAt = process.argv.indexOf('--out')
const out = outAt > 0 ? process.argv[outAt + 1] : undefined
if (!out) {
  process.stderr.write('usage: npm run nli:candidates -- FILE --out CACHE.json\n')
  process.exit(1)
}
process.argv.splice(outAt, 2)

const { data, db, embedder, principal, close } = await openEvalCorpus('nli:candidates')
const slim = (h: PassageHit) => ({
  start: h.start,
  end: h.end,
  score: h.score,
  content: h.content,
})
const result: NliCandidates = { embedder: embedder.id, pairs: [] }
const started = performance.now()
for (const nda of data.documents) {
  const documentId = await indexEvalDocument(db, embedder, principal, nda, chunkText(nda.text))
  for (const [key, annotation] of Object.entries(nda.annotation_sets[0]?.annotations ?? {})) {
    const hypothesis = data.labels[key]?.hypothesis
    if (!hypothesis) continue
    const question = asQuestion(hypothesis)
    const search = (k: number) =>
      hybridSearch(db, embedder, principal, {
        text: question,
        k,
        scope: { documentIds: [documentId] },
      })
    result.pairs.push({
      nda: nda.id,
      key,
      question,
      choice: annotation.choice,
      evidence: annotation.spans.flatMap((i) => (nda.spans[i] ? [nda.spans[i]] : [])),
      shown: (await search(PASSAGES_PER_ANSWER)).map(slim),
      pool: (await search(POOL)).map(slim),
    })
  }
}
writeFileSync(out, JSON.stringify(result))
console.log(
  `${result.pairs.length} pairs of ${data.documents.length} NDAs, ${((performance.now() - started) / 1000).toFixed(1)} s → ${out}`,
)
await close()

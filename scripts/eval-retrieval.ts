/**
 * Retrieval evaluation on a ContractNLI-format file (Koreeda & Manning, "ContractNLI", Findings
 * of EMNLP 2021):
 *
 *   npm run eval:retrieval -- FILE      (e.g. ../shared/fixtures/contract-nli/dev.json)
 *
 * For each NDA it indexes the NDA's own annotated spans as the passages (every engine ranks the
 * same units), asks each hypothesis labelled Entailment or Contradiction within that NDA through
 * the product's hybrid search (server/search/hybrid-search.ts, configured embedder, in-memory
 * PGlite), and prints recall@k of the gold evidence spans (per query, averaged; k = 1, 5, 8, 10),
 * ending with one JSON line. Exits 1 when FILE is missing.
 *
 *   npm run eval:retrieval -- FILE --paraphrase
 *
 * asks each hypothesis rewritten by rule so that it shares no content word with its evidence
 * spans (server/search/paraphrase/paraphrase-away.ts, WordNet synonyms): retrieval by meaning
 * alone (issue 25's target: recall@8 ≥ 0.5). The JSON line then adds `no_shared_word`, the share
 * of rewritten queries whose words match none of their evidence spans in the database's own
 * full-text index (PostgreSQL's parser, stop words and stemmer: a check independent of the
 * rewriter's), and the counts of words replaced and dropped.
 *
 *   npm run eval:retrieval -- --reworded
 *
 * needs no file: it asks issue 48's ten plain-language questions about a short NDA, each sharing
 * no content word with the clause that answers it (server/search/reworded-questions.ts), and
 * reports `found_in_top_8` (of 10) with the same recall figures.
 */
import { sql } from 'drizzle-orm'
import { indexEvalDocument } from './index-eval-document'
import { hybridSearch } from '../server/search/hybrid-search'
import { paraphraseAway } from '../server/search/paraphrase/paraphrase-away'
import { wordNet } from '../server/search/paraphrase/wordnet-synonyms'
import { REWORDED_NDA, REWORDED_QUESTIONS } from '../server/search/reworded-questions'
import { openEvalCorpus, type ContractNli } from './open-eval-corpus'

const paraphrase = process.argv.includes('--paraphrase')
const reworded = process.argv.includes('--reworded')

/** The ten reworded questions as a one-NDA ContractNLI corpus, passages as its spans. */
function rewordedCorpus(): ContractNli {
  const spans: Array<[number, number]> = []
  let at = 0
  for (const passage of REWORDED_NDA) {
    spans.push([at, at + passage.length])
    at += passage.length + 1
  }
  return {
    documents: [
      {
        id: 0,
        text: REWORDED_NDA.join('\n'),
        spans,
        annotation_sets: [
          {
            annotations: Object.fromEntries(
              REWORDED_QUESTIONS.map((q, i) => [
                `q${i}`,
                { choice: 'Entailment', spans: [q.answer] },
              ]),
            ),
          },
        ],
      },
    ],
    labels: Object.fromEntries(
      REWORDED_QUESTIONS.map((q, i) => [`q${i}`, { hypothesis: q.question }]),
    ),
  }
}

const { data, db, embedder, principal, close } = await openEvalCorpus(
  'eval:retrieval',
  reworded ? rewordedCorpus() : undefined,
)

const KS = [1, 5, 8, 10] as const
const sums = [0, 0, 0, 0]
let queries = 0
let foundInTop8 = 0
const rewrites = { disjoint: 0, replaced: 0, dropped: 0 }
const started = performance.now()
for (const nda of data.documents) {
  const spans = nda.spans.map(([start, end]) => ({ start, end, text: nda.text.slice(start, end) }))
  const documentId = await indexEvalDocument(db, embedder, principal, nda, spans)
  for (const [key, annotation] of Object.entries(nda.annotation_sets[0]?.annotations ?? {})) {
    if (annotation.choice === 'NotMentioned' || annotation.spans.length === 0) continue
    let hypothesis = data.labels[key]?.hypothesis ?? ''
    if (paraphrase) {
      const evidence = annotation.spans.map((i) => spans[i]?.text ?? '').join('\n')
      const rewritten = paraphraseAway(hypothesis, evidence, await wordNet())
      hypothesis = rewritten.text
      rewrites.replaced += rewritten.replaced
      rewrites.dropped += rewritten.dropped
      const res = await db.execute(
        sql`select count(*)::int as n from doc_chunks where document_id = ${documentId}
            and ordinal in (${sql.join(annotation.spans, sql`, `)})
            and tsv @@ replace(plainto_tsquery('english', ${hypothesis})::text, ' & ', ' | ')::tsquery`,
      )
      if ((res as unknown as { rows: Array<{ n: number }> }).rows[0]?.n === 0)
        rewrites.disjoint += 1
    }
    const hits = await hybridSearch(db, embedder, principal, {
      text: hypothesis,
      k: 10,
      scope: { documentId },
    })
    const gold = new Set(annotation.spans)
    if (hits.slice(0, 8).some((h) => gold.has(h.ordinal))) foundInTop8 += 1
    if (reworded)
      console.log(
        `${hits.slice(0, 8).some((h) => gold.has(h.ordinal)) ? 'found ' : 'MISSED'} ${hypothesis} → ${hits
          .slice(0, 8)
          .map((h) => h.ordinal)
          .join(' ')}`,
      )
    KS.forEach((k, i) => {
      const found = hits.slice(0, k).filter((h) => gold.has(h.ordinal)).length
      sums[i]! += found / gold.size
    })
    queries += 1
  }
}
const recall = sums.map((s) => Number((s / Math.max(queries, 1)).toFixed(4)))
console.log(
  `engine ${embedder.id}${paraphrase ? ', paraphrased queries' : ''}${reworded ? ', reworded questions' : ''}, ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
KS.forEach((k, i) => console.log(`recall@${k}: ${recall[i]?.toFixed(3)}`))
console.log(
  JSON.stringify({
    documents: data.documents.length,
    queries,
    recall_at_1: recall[0],
    recall_at_5: recall[1],
    recall_at_8: recall[2],
    recall_at_10: recall[3],
    ...(reworded && { mode: 'reworded', found_in_top_8: foundInTop8 }),
    ...(paraphrase && {
      mode: 'paraphrase',
      no_shared_word: Number((rewrites.disjoint / Math.max(queries, 1)).toFixed(4)),
      words_replaced: rewrites.replaced,
      words_dropped: rewrites.dropped,
    }),
  }),
)
await close()

/**
 * Trains the local clause model from a CUAD-format set and writes it as JSON.
 *
 *   npm run train:clauses -- [--contracts DIR --labels CSV] --out server/ai/analyzer/local/clauses/model.json
 *
 * Deterministic: the same inputs and seed give byte-identical output. Exits 1 when an input is
 * missing. See docs/decisions/0003-clause-model.md.
 */
import { writeFileSync } from 'node:fs'
import { DETECTED_CATEGORIES } from '../server/ai/analyzer/shared/cuad-taxonomy'
import { corpusFromContracts, DEFAULT_TRAIN_OPTIONS, trainClauseModel } from './clause-trainer'
import { loadCuadFromArgs, parseArgs } from './cuad-dataset'

const USAGE =
  'usage: npm run train:clauses -- [--contracts DIR --labels CSV] --out server/ai/analyzer/local/clauses/model.json'

const args = parseArgs(process.argv.slice(2))
const out = args.get('out')
if (!out || out === 'true') {
  process.stderr.write(`error: missing --out.\n${USAGE}\n`)
  process.exit(1)
}
const contracts = loadCuadFromArgs(args, USAGE)
const started = performance.now()
const { corpus, missingQuotes } = corpusFromContracts(contracts, DETECTED_CATEGORIES)
console.log(
  `${contracts.length} contracts, ${corpus.featureNames.length} distinct features, ${missingQuotes} quoted clauses not found in the text`,
)
const model = trainClauseModel(
  corpus,
  corpus.docs.map((_, i) => i),
  DETECTED_CATEGORIES,
  DEFAULT_TRAIN_OPTIONS,
)
const json = JSON.stringify(model)
writeFileSync(out, `${json}\n`)
for (const category of model.categories) {
  console.log(
    `${category.name.padEnd(36)} threshold ${category.threshold.toFixed(3)}  weights ${Object.keys(category.weights).length}`,
  )
}
console.log(
  `wrote ${out} (${(json.length / 1024).toFixed(0)} KiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)

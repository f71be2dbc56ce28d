/**
 * Trains the local embedder's word vectors (PPMI + truncated SVD, scripts/embedding-trainer.ts)
 * on the CUAD v1 contracts (The Atticus Project, Hendrycks et al. 2021, CC BY 4.0) and writes
 * them for the server:
 *
 *   npm run train:embeddings -- [--contracts DIR] [--nli FILE[,FILE]] [--out server/ai/embedder/local/word-vectors.bin]
 *
 * The committed vectors (ppmi-2) are `--nli ../shared/fixtures/contract-nli/dev.json`: CUAD and
 * ContractNLI's development NDAs, train-extra.json held out (decision 0117).
 *
 * Deterministic: the same contracts and options give byte-identical output. Exits 1 when the
 * contracts folder is absent (it lives outside the repository). See docs/decisions/0016.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fixturesDir, parseArgs } from './cuad-dataset'
import { DEFAULT_TRAIN_OPTIONS, trainWordVectors } from './embedding-trainer'
import { encodeWordVectors } from '../server/ai/embedder/local/word-vector-file'

const args = parseArgs(process.argv.slice(2))
const given = (name: string) => {
  const value = args.get(name)
  return value && value !== 'true' ? value : undefined
}
const dir = given('contracts') ?? join(fixturesDir(), 'contracts/cuad-txt')
const out = given('out') ?? 'server/ai/embedder/local/word-vectors.bin'
if (!existsSync(dir)) {
  process.stderr.write(
    `error: contracts folder not found: ${dir} (the fixtures live outside the repository: pass --contracts DIR or set LEXDESK_FIXTURES)\n`,
  )
  process.exit(1)
}
const started = performance.now()
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort()
/**
 * ContractNLI files (`--nli a.json,b.json`) whose NDAs are added to the contracts: word vectors
 * that have seen NDAs (decision 0117). An evaluation on a file used here is no longer held out.
 */
const nliFiles = (given('nli') ?? '').split(',').filter((f) => f !== '')
for (const file of nliFiles)
  if (!existsSync(file)) {
    process.stderr.write(`error: ContractNLI file not found: ${file}\n`)
    process.exit(1)
  }
const ndas = nliFiles.flatMap(
  (file) =>
    (JSON.parse(readFileSync(file, 'utf8')) as { documents: Array<{ text: string }> }).documents,
)
const texts = [...files.map((f) => readFileSync(join(dir, f), 'utf8')), ...ndas.map((d) => d.text)]
const trained = trainWordVectors(texts, DEFAULT_TRAIN_OPTIONS)
const bytes = encodeWordVectors(trained.words, trained.frequencies, trained.dim, trained.vectors)
writeFileSync(out, bytes)
console.log(
  `${files.length} contracts and ${ndas.length} NDAs, ${trained.words.length} words × ${trained.dim} dimensions; wrote ${out} (${(bytes.length / 1024 / 1024).toFixed(1)} MiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
